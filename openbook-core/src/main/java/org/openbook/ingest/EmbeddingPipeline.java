package org.openbook.ingest;

import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.openbook.chunk.Chunk;
import org.openbook.document.CorpusFile;
import org.openbook.document.LoadException;
import org.openbook.embed.DenseRoutes;
import org.openbook.embed.EmbeddingUnavailableException;
import org.openbook.embed.InputTooLongException;
import org.openbook.index.EmbeddedChunk;

/**
 * The three stages of an ingest run as a bounded producer/consumer pipeline, so the model never
 * waits for files and files never wait for the model:
 *
 * <pre>
 * loader thread:  hash, load, chunk each file in walk order ──▶ ┐
 * embed thread:   batches of {@code batchSize} texts ACROSS files, one embedAll each ──▶ ┐
 * caller:         {@link #next()} in walk order ──▶ index writes and commits (by the caller)
 * </pre>
 *
 * <ul>
 *   <li>Order: {@link #next()} returns the files in the order given, each exactly once, so the
 *       caller's commit protocol (every N changed documents, each document whole) is unchanged;
 *       nothing here touches the index.</li>
 *   <li>Bounded memory: at most {@code maxChunksInFlight} chunks (loaded, not yet returned by
 *       {@link #next()}) plus one document; a document larger than the bound passes alone.</li>
 *   <li>A partial batch is embedded as soon as no loaded file is waiting (e.g. the loader is
 *       busy with an OCR page), so the model idles only when there is nothing to embed.</li>
 *   <li>A failed batch is embedded again document by document, so a text the model rejects
 *       ({@link InputTooLongException}, a model error) costs its own document only, which comes
 *       back as a skip. A batch the endpoint could not embed ({@link
 *       EmbeddingUnavailableException}) fails all its documents at once, each reported as
 *       {@link Indexer#EMBEDDING_FAILED}.</li>
 *   <li>{@link #close()} stops both threads; an unexpected error in either comes out of
 *       {@link #next()}.</li>
 * </ul>
 */
final class EmbeddingPipeline implements AutoCloseable {

  /** What the loader made of one file, before embedding. */
  record Loaded(CorpusFile file, Indexer.Outcome outcome, List<Chunk> chunks) {}

  /**
   * A file's final outcome: unchanged, skipped, or embedded chunks; {@code permits} is the share
   * of the memory bound it holds until {@link #next()} returns it.
   */
  record Done(CorpusFile file, Indexer.Outcome outcome, int permits) {}

  private static final Object END = new Object();

  private final DenseRoutes routes;
  private final int batchSize;
  private final int maxChunksInFlight;
  private final Semaphore inFlight;
  private final BlockingQueue<Object> loaded = new LinkedBlockingQueue<>();
  private final BlockingQueue<Object> done = new LinkedBlockingQueue<>();
  private final ExecutorService threads;
  /** {@code embedAll} batches sent so far, for tests and diagnostics. */
  private final AtomicInteger batches = new AtomicInteger();
  /** Opens when the loader has queued its last file (or stopped). */
  private final CountDownLatch loaderDone = new CountDownLatch(1);

  /**
   * Starts the loader and embed threads.
   *
   * @param files             in the order {@link #next()} returns them
   * @param load              per-file hash/load/chunk; must not throw for a bad file (it returns
   *                          a skip outcome), only for a bug
   * @param routes            the models that embed each text (with their cache, if any)
   * @param batchSize         texts per {@code embedAll} call, ≥ 1
   * @param maxChunksInFlight bound on chunks held between loading and {@link #next()}, ≥ 1
   */
  EmbeddingPipeline(List<CorpusFile> files, Function<CorpusFile, Loaded> load, DenseRoutes routes,
      int batchSize, int maxChunksInFlight) {
    this.routes = routes;
    this.batchSize = batchSize;
    this.maxChunksInFlight = maxChunksInFlight;
    this.inFlight = new Semaphore(maxChunksInFlight);
    this.threads = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "openbook-ingest");
      t.setDaemon(true);
      return t;
    });
    threads.execute(() -> runLoader(files, load));
    threads.execute(this::runEmbedder);
  }

  /** Permits a document of {@code chunks} chunks takes: a huge document takes all, not more. */
  private int permits(int chunks) {
    return Math.min(chunks, maxChunksInFlight);
  }

  private void runLoader(List<CorpusFile> files, Function<CorpusFile, Loaded> load) {
    try {
      for (CorpusFile f : files) {
        Loaded l = load.apply(f);
        inFlight.acquire(permits(l.chunks().size()));
        loaded.put(l);
      }
      loaded.put(END);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      loaded.add(e);
    } finally {
      loaderDone.countDown();
    }
  }

  /** A loaded document whose chunks are being embedded. */
  private static final class Open {
    final Loaded loaded;
    final DenseRoutes.RoutedVectors[] vectors;
    int embedded;
    Indexer.Outcome failure;

    Open(Loaded loaded) {
      this.loaded = loaded;
      this.vectors = new DenseRoutes.RoutedVectors[loaded.chunks().size()];
    }

    boolean complete() {
      return failure != null || embedded == vectors.length;
    }
  }

  /** One text of the current batch: its document and position. */
  private record Slot(Open doc, int index) {}

  private void runEmbedder() {
    Deque<Open> open = new ArrayDeque<>();
    List<Slot> batch = new ArrayList<>(batchSize);
    try {
      while (true) {
        // Never idle with texts in hand: embed a partial batch if nothing else has arrived.
        Object item = batch.isEmpty() ? loaded.take() : loaded.poll();
        if (item == null) {
          embed(batch);
          emitCompleted(open);
          continue;
        }
        if (item instanceof Throwable t) {
          done.put(t);
          return;
        }
        if (item == END) {
          embed(batch);
          emitCompleted(open);
          done.put(END);
          return;
        }
        Open doc = new Open((Loaded) item);
        open.add(doc);
        for (int i = 0; i < doc.vectors.length && doc.failure == null; i++) {
          batch.add(new Slot(doc, i));
          if (batch.size() == batchSize) {
            embed(batch);
          }
        }
        emitCompleted(open);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      done.add(e);
    }
  }

  /** Hands the leading complete documents to {@link #next()}, keeping the input order. */
  private void emitCompleted(Deque<Open> open) throws InterruptedException {
    while (!open.isEmpty() && open.peekFirst().complete()) {
      Open doc = open.pollFirst();
      done.put(new Done(doc.loaded.file(), doc.failure != null ? doc.failure : embedded(doc),
          permits(doc.vectors.length)));
    }
  }

  private static Indexer.Outcome embedded(Open doc) {
    List<Chunk> chunks = doc.loaded.chunks();
    if (chunks.isEmpty()) {
      return doc.loaded.outcome();
    }
    List<EmbeddedChunk> out = new ArrayList<>(chunks.size());
    for (int i = 0; i < chunks.size(); i++) {
      DenseRoutes.RoutedVectors v = doc.vectors[i];
      out.add(new EmbeddedChunk(chunks.get(i), v.primary(), v.fields()));
    }
    return doc.loaded.outcome().withChunks(out);
  }

  /** Embeds the batch (dropping texts of documents that failed meanwhile) and clears it. */
  private void embed(List<Slot> batch) {
    batch.removeIf(s -> s.doc().failure != null);
    if (batch.isEmpty()) {
      return;
    }
    try {
      store(batch, routes.embedAll(batch.stream().map(this::text).toList()));
    } catch (EmbeddingUnavailableException e) {
      // the endpoint failed, not a text: embedding document by document would only fail again
      // (after as many retries each); every document of the batch is reported instead
      batch.stream().map(Slot::doc).distinct()
          .forEach(doc -> doc.failure = failure(doc.loaded.file().source(), e));
    } catch (RuntimeException e) {
      // Find the document(s) at fault: embed each document's share of the batch on its own.
      List<Open> docs = batch.stream().map(Slot::doc).distinct().toList();
      for (Open doc : docs) {
        List<Slot> mine = batch.stream().filter(s -> s.doc() == doc).toList();
        try {
          store(mine, routes.embedAll(mine.stream().map(this::text).toList()));
        } catch (RuntimeException perDoc) {
          doc.failure = failure(doc.loaded.file().source(), perDoc);
        }
      }
    }
    batches.incrementAndGet();
    batch.clear();
  }

  private String text(Slot s) {
    return s.doc().loaded.chunks().get(s.index()).embedText();
  }

  private static void store(List<Slot> slots, List<DenseRoutes.RoutedVectors> vectors) {
    for (int j = 0; j < slots.size(); j++) {
      Slot s = slots.get(j);
      s.doc().vectors[s.index()] = vectors.get(j);
      s.doc().embedded++;
    }
  }

  private static Indexer.Outcome failure(String source, RuntimeException e) {
    if (e instanceof EmbeddingUnavailableException) {
      return Indexer.Outcome.skipped(source, Indexer.EMBEDDING_FAILED, e.getMessage());
    }
    if (e instanceof InputTooLongException) {
      return Indexer.Outcome.skipped(source, Indexer.TOO_LONG_FOR_MODEL,
          e.getMessage());
    }
    // a model error on odd input costs one file, not the run
    return Indexer.Outcome.skipped(source, LoadException.Reason.CORRUPT.label(),
        e.getClass().getSimpleName() + ": " + e.getMessage());
  }

  /**
   * The next file's outcome, in input order, or {@code null} after the last; releases the memory
   * bound the file held. Blocks while the file is being loaded or embedded.
   *
   * @throws InterruptedIOException if the calling thread is interrupted
   * @throws IllegalStateException  wrapping an unexpected error of the loader or embed thread
   */
  Done next() throws InterruptedIOException {
    Object item;
    try {
      item = done.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("ingest interrupted");
    }
    if (item == END) {
      done.add(END); // later calls return null too
      return null;
    }
    if (item instanceof Throwable t) {
      done.add(t);
      if (t instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException("ingest pipeline failed: " + t, t);
    }
    Done d = (Done) item;
    inFlight.release(d.permits());
    return d;
  }

  /** Number of {@code embedAll} batches sent so far (retries of a failed batch not counted). */
  int batches() {
    return batches.get();
  }

  /** Waits until the loader has queued every file (tests: makes batch composition deterministic). */
  void awaitLoaded() throws InterruptedException {
    loaderDone.await();
  }

  /** Stops the loader and embed threads (interrupting a wait; a running model call finishes). */
  @Override
  public void close() {
    threads.shutdownNow();
  }
}
