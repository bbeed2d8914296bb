package org.openbook.document.office;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.poi.sl.usermodel.GroupShape;
import org.apache.poi.sl.usermodel.Notes;
import org.apache.poi.sl.usermodel.Placeholder;
import org.apache.poi.sl.usermodel.Shape;
import org.apache.poi.sl.usermodel.SimpleShape;
import org.apache.poi.sl.usermodel.Slide;
import org.apache.poi.sl.usermodel.SlideShow;
import org.apache.poi.sl.usermodel.SlideShowFactory;
import org.apache.poi.sl.usermodel.TableCell;
import org.apache.poi.sl.usermodel.TableShape;
import org.apache.poi.sl.usermodel.TextParagraph;
import org.apache.poi.sl.usermodel.TextRun;
import org.apache.poi.sl.usermodel.TextShape;
import org.openbook.document.Document;
import org.openbook.document.DocumentAssembler;
import org.openbook.document.DocumentLoader;
import org.openbook.document.LoadException;
import org.openbook.document.LoadLimits;
import org.openbook.document.LoadResult;
import org.openbook.document.RawFile;
import org.openbook.document.Section.Kind;

/**
 * Loads PowerPoint {@code .pptx} and 97–2003 {@code .ppt} with Apache POI's common slide API.
 *
 * <p>One page per slide ({@link org.openbook.document.PageSpan}, 1-based slide number, so a chunk
 * cites its slide the way a PDF chunk cites its page). The slide title (title placeholder, else
 * {@code 第 N 张}) is the heading; text boxes become paragraphs, bulleted paragraphs a list
 * ({@code "• "}), tables Markdown tables with their first row as header. Speaker notes, which
 * often hold facts the slide does not show, are indexed under the path
 * {@code [title, }{@value #NOTES}{@code ]} so they are marked as notes in every citation. Slide
 * numbers and date/footer placeholders are skipped.
 */
public final class SlidesLoader implements DocumentLoader {

  /** Heading under which a slide's speaker notes are indexed. */
  public static final String NOTES = "演讲者备注";

  private final LoadLimits limits;

  /** @param limits inflated bytes and XML nodes one file may have */
  public SlidesLoader(LoadLimits limits) {
    this.limits = limits;
  }

  /** {@link LoadLimits#DEFAULTS}. */
  public SlidesLoader() {
    this(LoadLimits.DEFAULTS);
  }


  @Override
  public Set<String> extensions() {
    return Set.of("pptx", "ppt");
  }

  /**
   * {@inheritDoc}
   *
   * @throws LoadException ENCRYPTED, TOO_LARGE (zip bomb), CORRUPT, or EMPTY when no slide holds
   *     text (e.g. slides made of pictures only)
   */
  @Override
  public LoadResult load(Path file, String source) throws IOException, LoadException {
    RawFile raw = RawFile.read(file);
    OfficeFiles.check(raw.bytes(), source, "PowerPoint", limits);
    DocumentAssembler out = new DocumentAssembler();
    int slides;
    try (SlideShow<?, ?> show = SlideShowFactory.create(new ByteArrayInputStream(raw.bytes()))) {
      List<? extends Slide<?, ?>> list = show.getSlides();
      slides = list.size();
      for (int i = 0; i < list.size(); i++) {
        readSlide(list.get(i), i + 1, out);
      }
    } catch (IOException | RuntimeException e) {
      throw OfficeFiles.failure(source, "PowerPoint", e);
    }
    if (out.isEmpty()) {
      throw new LoadException(LoadException.Reason.EMPTY, source + ": none of its " + slides
          + " slide(s) holds text (pictures only?)");
    }
    Document doc = out.build(source, RawFile.baseName(file),
        Map.of("format", OfficeFiles.extension(file)), raw.sha256());
    return new LoadResult(doc, List.of());
  }

  private static void readSlide(Slide<?, ?> slide, int number, DocumentAssembler out) {
    out.startPage(number);
    String title = slide.getTitle() == null ? "" : DocumentAssembler.oneLine(slide.getTitle());
    String heading = title.isEmpty() ? "第 " + number + " 张" : title;
    out.path(List.of(heading));
    if (!title.isEmpty()) {
      out.block(Kind.PARAGRAPH, title);
    }
    boolean[] titleSeen = {false};
    for (Shape<?, ?> shape : slide.getShapes()) {
      readShape(shape, title, titleSeen, out);
    }
    Notes<?, ?> notes = slide.getNotes();
    if (notes != null) {
      StringBuilder sb = new StringBuilder();
      for (Shape<?, ?> s : notes.getShapes()) {
        if (s instanceof TextShape<?, ?> t && isNotesBody(t)) {
          String text = t.getText();
          if (text != null && !text.isBlank()) {
            sb.append(sb.length() == 0 ? "" : "\n").append(text.strip());
          }
        }
      }
      if (sb.length() > 0) {
        out.path(List.of(heading, NOTES));
        out.block(Kind.PARAGRAPH, sb.toString());
      }
    }
    out.endPage(false);
  }

  private static boolean isNotesBody(TextShape<?, ?> t) {
    Placeholder ph = t.getPlaceholder();
    return ph == null || ph == Placeholder.BODY || ph == Placeholder.CONTENT;
  }

  private static void readShape(Shape<?, ?> shape, String title, boolean[] titleSeen,
      DocumentAssembler out) {
    if (shape instanceof GroupShape<?, ?> g) {
      for (Shape<?, ?> s : g) {
        readShape(s, title, titleSeen, out);
      }
    } else if (shape instanceof TableShape<?, ?> t) {
      List<List<String>> rows = new ArrayList<>();
      for (int r = 0; r < t.getNumberOfRows(); r++) {
        List<String> cells = new ArrayList<>();
        for (int c = 0; c < t.getNumberOfColumns(); c++) {
          TableCell<?, ?> cell = t.getCell(r, c);
          cells.add(cell == null || cell.getText() == null ? "" : cell.getText());
        }
        rows.add(cells);
      }
      out.table(rows, 1);
    } else if (shape instanceof TextShape<?, ?> t) {
      Placeholder ph = shape instanceof SimpleShape<?, ?> ss ? ss.getPlaceholder() : null;
      if (ph == Placeholder.SLIDE_NUMBER || ph == Placeholder.DATETIME
          || ph == Placeholder.FOOTER) {
        return;
      }
      String text = t.getText() == null ? "" : t.getText().strip();
      if (!titleSeen[0] && !title.isEmpty() && DocumentAssembler.oneLine(text).equals(title)) {
        titleSeen[0] = true;
        return;
      }
      StringBuilder list = new StringBuilder();
      StringBuilder prose = new StringBuilder();
      for (TextParagraph<?, ?, ?> p : t.getTextParagraphs()) {
        StringBuilder runs = new StringBuilder();
        for (TextRun run : p.getTextRuns()) {
          runs.append(run.getRawText());
        }
        String line = DocumentAssembler.oneLine(runs.toString());
        if (line.isEmpty()) {
          continue;
        }
        if (p.getBulletStyle() != null) {
          list.append(list.length() == 0 ? "" : "\n")
              .append("  ".repeat(Math.max(0, p.getIndentLevel()))).append("• ").append(line);
        } else {
          prose.append(prose.length() == 0 ? "" : "\n").append(line);
        }
      }
      out.block(Kind.PARAGRAPH, prose.toString());
      out.block(Kind.LIST, list.toString());
    }
  }
}
