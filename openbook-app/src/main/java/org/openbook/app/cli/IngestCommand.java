package org.openbook.app.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.openbook.app.JsonOutput;
import org.openbook.engine.OpenBook;
import org.openbook.ingest.IngestListener;
import org.openbook.ingest.IngestReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code openbook ingest <dir> --index PATH [--reset]}. */
@Command(name = "ingest", mixinStandardHelpOptions = true,
    description = "Index every supported file under a folder (.md .markdown .txt .pdf .html .htm"
        + " .docx .doc .xlsx .xls .csv .pptx .ppt .odt .ods .odp .rtf; .png .jpg .tif by OCR).")
public final class IngestCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "DIR", description = "Folder of documents.")
  Path dir;

  @Mixin CommonOptions common;

  @Option(names = "--reset", description = "Delete the index and rebuild it from scratch.")
  boolean reset;

  @Option(names = "--no-progress", description = "Do not draw a progress bar.")
  boolean noProgress;

  @Option(names = "--list-unchanged", description = "Also list the unchanged files by name"
      + " (by default the report counts them and names only what changed or was skipped).")
  boolean listUnchanged;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("not a folder: " + dir);
    }
    try (OpenBook engine = common.open(reset ? OpenBook.Mode.RESET : OpenBook.Mode.WRITE);
         // a bar only for a person at a terminal, not in logs or pipes
         Progress progress = new Progress(!noProgress && !common.json && System.console() != null)) {
      IngestReport report = engine.ingest(dir, progress);
      progress.close();
      long total = engine.count();
      if (common.json) {
        out.println(JsonOutput.ingest(report, total, listUnchanged));
      } else {
        printSummary(out, report, total, listUnchanged);
      }
      // images skipped for want of OCR are reported but do not fail the run
      return report.failed().isEmpty() ? 0 : OpenBookCommand.EXIT_SKIPPED;
    }
  }

  private static void printSummary(PrintWriter out, IngestReport r, long total,
      boolean listUnchanged) {
    if (listUnchanged) {
      r.unchanged().stream().sorted().forEach(s -> out.println("unchanged: " + s));
    }
    for (IngestReport.IndexedFile f : r.indexed()) {
      for (String w : f.warnings()) {
        out.println("warning: " + f.source() + ": " + w);
      }
    }
    for (IngestReport.SkippedFile s : r.skipped()) {
      out.println("skipped: " + s.message());
    }
    double seconds = r.millis() / 1000.0;
    out.printf("files: %d seen, %d added, %d updated, %d unchanged, %d skipped, %d removed%n",
        r.filesSeen(), r.added(), r.updated(), r.unchanged().size(), r.skipped().size(),
        r.removed().size());
    out.printf("chunks: %d written, %d in index; %.1f s (%.1f chunks/s)%n",
        r.chunks(), total, seconds, seconds > 0 ? r.chunks() / seconds : 0.0);
    StringBuilder formats = new StringBuilder();
    r.formats().forEach((ext, counts) -> formats.append(formats.length() == 0 ? "" : ", ")
        .append(ext.isEmpty() ? "(none)" : ext).append(' ').append(counts.get("indexed"))
        .append(counts.get("skipped") > 0 ? " (+" + counts.get("skipped") + " skipped)" : ""));
    out.println("formats: " + formats);
    if (r.ocrPages() > 0) {
      out.printf("ocr: %d page(s) in %.1f s%n", r.ocrPages(), r.ocrSeconds());
    }
  }

  /** A progress bar on stderr, drawn only for interactive runs. */
  private static final class Progress implements IngestListener, AutoCloseable {
    private final boolean enabled;
    private ProgressBar bar;

    Progress(boolean enabled) {
      this.enabled = enabled;
    }

    @Override
    public void started(int files) {
      if (enabled) {
        bar = new ProgressBarBuilder().setTaskName("ingest").setInitialMax(files)
            .setStyle(ProgressBarStyle.ASCII).setUnit(" files", 1).continuousUpdate().build();
      }
    }

    @Override
    public void fileStarted(String source) {
      if (bar != null) {
        String name = source.length() > 40 ? "…" + source.substring(source.length() - 39) : source;
        bar.setExtraMessage(name);
      }
    }

    @Override
    public void fileDone(String source) {
      if (bar != null) {
        bar.step();
      }
    }

    @Override
    public void close() {
      if (bar != null) {
        bar.close();
        bar = null;
      }
    }
  }
}
