package org.openbook.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.index.AccessFilter;
import org.openbook.lucene.LuceneChunkStore;
import org.openbook.testing.HashEmbedder;

/**
 * Issue 6 "done when" 2: a child JVM ingesting a corpus is killed with SIGKILL
 * ({@link Process#destroyForcibly()}) before, during and after a commit; each time the index
 * opens at its last commit, passes the consistency check, and the next run continues; the last
 * run completes with the full count. While a child writes, a second writer is refused and a
 * reader sees a consistent snapshot.
 */
class KillTest {

  private static final int FILES = 300;
  private static final int SECTIONS = 2;
  private static final int COMMIT_EVERY = 50;
  /** A token in every chunk, so the BM25 route can list them all. */
  private static final String EVERY = "zebra";
  private static final AccessFilter ALL = new AccessFilter(Set.of("public"));

  @TempDir Path tmp;

  private final HashEmbedder embedder = new HashEmbedder();

  /** A running child and the lines it printed so far. */
  private static final class Child implements AutoCloseable {
    final Process process;
    final BufferedReader out;
    final List<String> lines = new ArrayList<>();

    Child(Process process) {
      this.process = process;
      this.out = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Reads lines until one matches; fails if the child exits first. */
    String awaitLine(Predicate<String> wanted) throws IOException {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        lines.add(line);
        if (wanted.test(line)) {
          return line;
        }
      }
      throw new AssertionError("child ended without the expected line; printed " + lines
          + "\nstderr: " + new String(process.getErrorStream().readAllBytes()));
    }

    /** SIGKILL, then wait until the process is gone (its lock is released by the OS). */
    void kill() throws InterruptedException {
      process.destroyForcibly();
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }

  private Child start(Path corpus, Path index, Path config, long sleepMillis) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-cp",
        System.getProperty("java.class.path"), IngestChild.class.getName(), corpus.toString(),
        index.toString(), config.toString(), Long.toString(sleepMillis));
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    return new Child(pb.start());
  }

  private static void writeCorpus(Path corpus) throws IOException {
    for (int i = 0; i < FILES; i++) {
      StringBuilder b = new StringBuilder("# 文档").append(i).append("\n");
      for (int s = 0; s < SECTIONS; s++) {
        b.append("## 第").append(s).append("节\n").append(EVERY).append(" 文档").append(i)
            .append("第").append(s).append("节的内容。\n");
      }
      Path p = corpus.resolve(String.format("d%02d/f%03d.md", i / 30, i));
      Files.createDirectories(p.getParent());
      Files.writeString(p, b.toString());
    }
  }

  private LuceneChunkStore openIndex(Path index) throws IOException {
    // the store checks the manifest against these settings; read it back to get them
    var m = LuceneChunkStore.readManifest(index).orElseThrow();
    return LuceneChunkStore.openExisting(index, m,
        org.openbook.analysis.OpenBookAnalysis.forId(m.analyzer()));
  }

  /** Opens the index after a kill and checks it; returns the committed document count. */
  private long check(Path index) throws IOException {
    try (LuceneChunkStore store = openIndex(index)) {
      IndexConsistency.assertConsistent(store, embedder, ALL, EVERY);
      long docs = store.manifest().documents();
      // every commit is a multiple of COMMIT_EVERY documents, or the whole corpus
      assertThat(docs % COMMIT_EVERY == 0 || docs == FILES).as("documents %d", docs).isTrue();
      assertThat(store.count()).isEqualTo(docs * SECTIONS);
      return docs;
    }
  }

  @Test
  void should_leave_a_consistent_index_whenever_the_ingest_is_killed() throws Exception {
    Path corpus = tmp.resolve("corpus");
    Path index = tmp.resolve("index");
    Path config = tmp.resolve("openbook.yaml");
    writeCorpus(corpus);
    Files.writeString(config, "ingest:\n  commitEvery: " + COMMIT_EVERY + "\n");

    // 1. before the first commit
    try (Child c = start(corpus, index, config, 10)) {
      c.awaitLine("file 10"::equals);
      c.kill();
    }
    assertThat(check(index)).isZero();

    // 2. right after a commit (the run resumes from scratch: nothing was committed)
    try (Child c = start(corpus, index, config, 10)) {
      c.awaitLine("committed 50"::equals);
      c.kill();
    }
    long afterCommit = check(index);
    assertThat(afterCommit).isBetween(50L, 100L);

    // 3. during a commit: the next file is the 50th changed one, whose write triggers a commit
    try (Child c = start(corpus, index, config, 10)) {
      c.awaitLine(("file " + (afterCommit + 49))::equals);
      c.kill();
    }
    long duringCommit = check(index);
    assertThat(duringCommit).isBetween(afterCommit, afterCommit + 100);

    // 4. mid-run, while a second writer is refused and a reader sees one consistent snapshot
    try (Child c = start(corpus, index, config, 10)) {
      c.awaitLine(("file " + (duringCommit + 60))::equals);
      assertThatThrownBy(() -> OpenBook.builder().index(index).config(OpenBookConfig.defaults())
          .embedder(embedder)
          .mode(OpenBook.Mode.WRITE).build()).hasMessageStartingWith("another ingest is writing to " + index);
      for (int i = 0; i < 5; i++) {
        check(index);
      }
      c.kill();
    }
    check(index);

    // 5. to completion, then killed after the final commit before it exits
    try (Child c = start(corpus, index, config, 0)) {
      c.awaitLine(l -> l.startsWith("done "));
      c.kill();
    }
    assertThat(check(index)).isEqualTo(FILES);

    // 6. a re-run finds nothing to do and exits normally
    try (Child c = start(corpus, index, config, 0)) {
      assertThat(c.awaitLine(l -> l.startsWith("done "))).isEqualTo("done 0");
      assertThat(c.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(c.process.exitValue()).isZero();
    }
    try (LuceneChunkStore store = openIndex(index)) {
      IndexConsistency.assertConsistent(store, embedder, ALL, EVERY);
      assertThat(store.count()).isEqualTo((long) FILES * SECTIONS);
      assertThat(store.documentIds()).hasSize(FILES);
    }
  }
}
