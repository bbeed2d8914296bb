package org.openbook.lucene;

import java.io.IOException;
import java.util.Collection;
import java.util.Set;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.openbook.testing.InjectedFaults;

/**
 * The Lucene store's fault hook: every file operation that marks a step of a commit (a segment
 * completed, the pending commit point written, files synced, {@code pending_segments_N} renamed
 * to publish the commit) goes through {@link InjectedFaults}, so the writer can be killed at
 * each. Left alone: reads, temporary files, deletions of files no commit needs any
 * more (they cannot change what a reader sees) and the write lock (a killed process's lock is
 * released by the OS).
 */
final class FaultInjectingDirectory extends FilterDirectory {

  /** The interface of a directory call that may throw. */
  private interface Call<T> {
    T run() throws IOException;
  }

  private final InjectedFaults faults;

  FaultInjectingDirectory(Directory in, InjectedFaults faults) {
    super(in);
    this.faults = faults;
  }

  private <T> T hooked(String what, Call<T> call) throws IOException {
    int index = faults.before(what);
    T result = call.run();
    faults.after(index, what);
    return result;
  }

  /**
   * Hooked for the files that mark a step of a commit: a segment's info file ({@code .si},
   * written once the segment's other files are complete) and the pending commit point. Dying at
   * any other file of a segment leaves the same visible state as dying at its {@code .si}, and
   * each hooked call costs the fault test a whole ingest.
   */
  @Override
  public IndexOutput createOutput(String name, IOContext context) throws IOException {
    if (!name.endsWith(".si") && !name.startsWith(IndexFileNames.PENDING_SEGMENTS)) {
      return in.createOutput(name, context);
    }
    return hooked("createOutput " + name, () -> in.createOutput(name, context));
  }

  @Override
  public void sync(Collection<String> names) throws IOException {
    hooked("sync " + Set.copyOf(names).size() + " files", () -> {
      in.sync(names);
      return null;
    });
  }

  @Override
  public void syncMetaData() throws IOException {
    hooked("syncMetaData", () -> {
      in.syncMetaData();
      return null;
    });
  }

  @Override
  public void rename(String source, String dest) throws IOException {
    hooked("rename " + source + " -> " + dest, () -> {
      in.rename(source, dest);
      return null;
    });
  }
}
