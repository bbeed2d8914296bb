package org.openbook.app.server;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.openbook.ingest.IngestListener;

/**
 * Background jobs for uploads: one worker thread (corpus writes are serialised anyway), jobs
 * kept in memory (the {@value #KEPT} most recent) and visible only to the principal that started
 * them. Thread-safe.
 */
final class UploadJobs implements AutoCloseable {
  /** Finished jobs kept for polling. */
  static final int KEPT = 1000;

  /** Job states, in order. */
  enum Status { queued, running, succeeded, failed }

  /**
   * One job. {@code result} is the response object of a successful job, {@code error} the
   * {@link ApiException} of a failed one; both null before the end.
   */
  static final class Job implements IngestListener {
    final String id;
    final String owner;
    final String createdAt;
    volatile Status status = Status.queued;
    final AtomicInteger done = new AtomicInteger();
    volatile int total;
    volatile Object result;
    volatile ApiException error;
    volatile String finishedAt;

    Job(String id, String owner, String createdAt, int total) {
      this.id = id;
      this.owner = owner;
      this.createdAt = createdAt;
      this.total = total;
    }

    @Override
    public void started(int files) {
      total = files;
    }

    @Override
    public void fileDone(String source) {
      done.incrementAndGet();
    }
  }

  private final Clock clock;
  private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "openbook-upload");
    t.setDaemon(true);
    return t;
  });
  private final Map<String, Job> jobs = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Job> eldest) {
      return size() > KEPT && eldest.getValue().finishedAt != null;
    }
  };

  UploadJobs(Clock clock) {
    this.clock = clock;
  }

  /**
   * Queues {@code work}, which gets the job (its progress listener) and returns the result
   * object, or throws an {@link ApiException} (any other exception becomes a generic 500).
   */
  Job submit(String owner, int files, Function<Job, Object> work,
      java.util.function.BiFunction<RuntimeException, Job, ApiException> onFailure) {
    Job job = new Job("j-" + UUID.randomUUID(), owner, clock.instant().toString(), files);
    synchronized (jobs) {
      jobs.put(job.id, job);
    }
    worker.execute(() -> {
      job.status = Status.running;
      try {
        job.result = work.apply(job);
        job.status = Status.succeeded;
      } catch (RuntimeException e) {
        job.error = onFailure.apply(e, job);
        job.status = Status.failed;
      } finally {
        job.finishedAt = clock.instant().toString();
      }
    });
    return job;
  }

  /**
   * The job {@code id} of {@code owner}.
   *
   * @throws ApiException 404 naming {@code id} when unknown, expired or another principal's
   */
  Job require(String id, String owner) {
    Job j;
    synchronized (jobs) {
      j = jobs.get(id);
    }
    if (j == null || !j.owner.equals(owner)) {
      throw new ApiException(404, "id", "unknown job id");
    }
    return j;
  }

  @Override
  public void close() {
    worker.shutdown();
    try {
      worker.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
