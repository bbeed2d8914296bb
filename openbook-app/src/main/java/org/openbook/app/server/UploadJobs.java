package org.openbook.app.server;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.openbook.ingest.IngestListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Background jobs for uploads, kept in memory (the {@value #KEPT} most recent, and at most
 * {@code maxPerOwner} per principal) and visible only to the principal that started them.
 *
 * <p>Scheduling: the jobs of one principal run one after another, in order; jobs of different
 * principals run at the same time, each on its own thread, so one writer's slow upload never
 * delays another's (the corpus then serialises only the index writes, see
 * {@link org.openbook.engine.corpus.Corpus#commit}). A job that throws an {@link Error}
 * ({@link OutOfMemoryError}, {@link StackOverflowError}) fails like any other: the thread
 * survives, the job is {@code failed} with a 500, and the next job runs. Thread-safe.
 */
final class UploadJobs implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UploadJobs.class);
  /** Finished jobs kept for polling, all principals together. */
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
  private final int maxPerOwner;
  /** One thread per principal with queued jobs; idle threads end after a minute. */
  private final ExecutorService workers = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "openbook-upload");
    t.setDaemon(true);
    return t;
  });
  /** Queued jobs per principal whose runner is active; guarded by {@code jobs}. */
  private final Map<String, Queue<Runnable>> queues = new HashMap<>();
  private final Map<String, Job> jobs = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Job> eldest) {
      return size() > KEPT && eldest.getValue().finishedAt != null;
    }
  };

  /** @param maxPerOwner jobs kept per principal ({@code server.quotas.maxJobsPerPrincipal}) */
  UploadJobs(Clock clock, int maxPerOwner) {
    this.clock = clock;
    this.maxPerOwner = maxPerOwner;
  }


  /**
   * Checks that {@code owner} may start one more job: when it already has {@code maxPerOwner},
   * its oldest finished one is forgotten.
   *
   * @throws ApiException 429 when all of them are still queued or running
   */
  void requireRoom(String owner) {
    synchronized (jobs) {
      makeRoom(owner);
    }
  }

  /** Forgets the oldest finished job of {@code owner} when it is at the limit; under the lock. */
  private void makeRoom(String owner) {
    int count = 0;
    String oldestFinished = null;
    for (Job j : jobs.values()) {
      if (j.owner.equals(owner)) {
        count++;
        if (oldestFinished == null && j.finishedAt != null) {
          oldestFinished = j.id;
        }
      }
    }
    if (count < maxPerOwner) {
      return;
    }
    if (oldestFinished == null) {
      throw new ApiException(429, null, "too many upload jobs: principal '" + owner + "' has "
          + count + " queued or running, at most " + maxPerOwner
          + " (server.quotas.maxJobsPerPrincipal); wait for one to finish");
    }
    jobs.remove(oldestFinished);
  }

  /**
   * Queues {@code work}, which gets the job (its progress listener) and returns the result
   * object, or throws; {@code onFailure} turns a {@link RuntimeException} into the job's error
   * (an {@link Error} becomes a generic 500).
   *
   * @throws ApiException 429 as {@link #requireRoom}
   */
  Job submit(String owner, int files, Function<Job, Object> work,
      BiFunction<RuntimeException, Job, ApiException> onFailure) {
    Job job = new Job("j-" + UUID.randomUUID(), owner, clock.instant().toString(), files);
    Runnable run = () -> run(job, work, onFailure);
    synchronized (jobs) {
      makeRoom(owner);
      jobs.put(job.id, job);
      Queue<Runnable> q = queues.get(owner);
      if (q != null) {
        q.add(run); // the owner's runner takes it after the current job
        return job;
      }
      q = new ArrayDeque<>();
      q.add(run);
      queues.put(owner, q);
    }
    workers.execute(() -> drain(owner));
    return job;
  }

  /** Runs the queued jobs of {@code owner} in order until its queue is empty. */
  private void drain(String owner) {
    while (true) {
      Runnable next;
      synchronized (jobs) {
        Queue<Runnable> q = queues.get(owner);
        next = q.poll();
        if (next == null) {
          queues.remove(owner);
          return;
        }
      }
      next.run();
    }
  }

  private void run(Job job, Function<Job, Object> work,
      BiFunction<RuntimeException, Job, ApiException> onFailure) {
    job.status = Status.running;
    try {
      job.result = work.apply(job);
      job.status = Status.succeeded;
    } catch (RuntimeException e) {
      job.error = onFailure.apply(e, job);
      job.status = Status.failed;
    } catch (OutOfMemoryError | StackOverflowError e) {
      // the job's objects are garbage now; the server goes on (the file was too much for it)
      LOG.error("upload job {} of {} failed: {}", job.id, job.owner, e.toString());
      job.error = new ApiException(500, null, "the upload needed more "
          + (e instanceof OutOfMemoryError ? "memory" : "stack") + " than the server has;"
          + " quote job id " + job.id);
      job.status = Status.failed;
    } catch (Error e) {
      LOG.error("upload job {} of {} failed", job.id, job.owner, e);
      job.error = new ApiException(500, null, "internal error; quote job id " + job.id);
      job.status = Status.failed;
    } finally {
      job.finishedAt = clock.instant().toString();
    }
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
    workers.shutdown();
    try {
      workers.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
