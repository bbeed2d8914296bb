package org.openbook.embed;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The pooled daemon threads on which the parts of one question run side by side: the English
 * half of a question's embedding ({@link DenseRoutes#embedQuery}) and the BM25 route of a hybrid
 * search (it runs while the calling thread embeds and searches the dense route). Daemon, so a
 * slow task never keeps the JVM alive; idle threads end after 60 s.
 */
public final class QueryThreads {

  /** The one pool, shared by every retriever of the JVM. */
  public static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "openbook-query");
    t.setDaemon(true);
    return t;
  });

  private QueryThreads() {}

  /**
   * The result of a task run on {@link #POOL}, waiting for it; its failure is rethrown as the
   * task threw it (a {@link RuntimeException} or {@link Error}), not wrapped in a {@link
   * CompletionException}.
   */
  public static <T> T join(CompletableFuture<T> task) {
    try {
      return task.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }
}
