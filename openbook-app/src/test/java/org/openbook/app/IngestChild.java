package org.openbook.app;

import org.openbook.engine.OpenBook;
import java.nio.file.Path;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.ingest.IngestListener;
import org.openbook.ingest.IngestReport;
import org.openbook.testing.HashEmbedder;

/**
 * The child process of {@link KillTest}: ingests a folder with the {@link HashEmbedder} and
 * prints one line per event, flushed, so the parent knows where it is when it kills it:
 * {@code started N}, {@code file I} (1-based, after each file), {@code committed C}, {@code done
 * CHUNKS}.
 *
 * <p>Arguments: corpus folder, index folder, config YAML, sleep per file in milliseconds (to
 * give the parent time to kill it mid-run).
 */
public final class IngestChild {

  private IngestChild() {}

  public static void main(String[] args) throws Exception {
    Path corpus = Path.of(args[0]);
    Path index = Path.of(args[1]);
    long sleep = Long.parseLong(args[3]);
    try (OpenBook engine = OpenBook.open(index, ConfigLoader.read(Path.of(args[2])),
        new HashEmbedder(), true, false)) {
      IngestReport r = engine.ingest(corpus, new IngestListener() {
        private int files;

        @Override
        public void started(int n) {
          System.out.println("started " + n);
        }

        @Override
        public void fileDone(String source) {
          try {
            Thread.sleep(sleep);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          System.out.println("file " + ++files);
        }

        @Override
        public void committed(int changed) {
          System.out.println("committed " + changed);
        }
      });
      System.out.println("done " + r.chunks());
    }
  }
}
