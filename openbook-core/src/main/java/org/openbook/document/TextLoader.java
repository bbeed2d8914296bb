package org.openbook.document;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Loads plain text ({@code .txt}) in any common encoding (see {@link Charsets} for the detection
 * order: BOM, strict UTF-8, ICU4J with a GB18030 preference).
 *
 * <p>{@link Document#text()} is the decoded content without a BOM. A file that opens with a
 * {@code ---} line has YAML front matter exactly as in Markdown (see {@link FrontMatter}): its
 * keys go into {@code meta} (lower-cased; {@code dept} trimmed and lower-cased), it stays in the
 * text but belongs to no section, and front matter that cannot be read is a
 * {@link LoadException.Reason#BAD_METADATA} error. Sections are the paragraphs after the front
 * matter separated by blank lines (all {@link Section.Kind#PARAGRAPH}, empty heading path). The
 * title is front-matter {@code title}, else the file name without extension; {@code meta} also
 * holds {@code charset} (the detected Java charset name, which front matter cannot override) and
 * {@code dept} ({@value Document#PUBLIC} when not given).
 */
public final class TextLoader implements DocumentLoader {

  /** Metadata key holding the detected charset, e.g. {@code GB18030}. */
  public static final String CHARSET = "charset";

  @Override
  public Set<String> extensions() {
    return Set.of("txt");
  }

  /**
   * {@inheritDoc}
   *
   * @throws LoadException BINARY for non-text content, EMPTY for empty or whitespace-only text
   *     (front matter aside), BAD_METADATA for front matter that cannot be read
   */
  /** The front matter's {@code dept} only, decoded as {@link #load} decodes. */
  @Override
  public String declaredDepartment(Path file, String source) throws IOException, LoadException {
    String text = Charsets.decode(RawFile.read(file).bytes(), source).text();
    return FrontMatter.parse(text, source).meta().getOrDefault(Document.DEPT, Document.PUBLIC);
  }

  @Override
  public LoadResult load(Path file, String source) throws IOException, LoadException {
    RawFile raw = RawFile.read(file);
    Charsets.Decoded decoded = Charsets.decode(raw.bytes(), source);
    String text = decoded.text();
    FrontMatter fm = FrontMatter.parse(text, source);
    List<Section> sections = new ArrayList<>();
    for (int[] p : TextBlocks.paragraphs(text, fm.end(), text.length())) {
      sections.add(new Section(Section.Kind.PARAGRAPH, List.of(), p[0], p[1]));
    }
    if (sections.isEmpty()) {
      throw new LoadException(LoadException.Reason.EMPTY, source
          + (fm.end() > 0 ? ": no text outside front matter" : ": no text"));
    }
    Map<String, String> meta = new LinkedHashMap<>(fm.meta());
    meta.put(CHARSET, decoded.charset().name());
    meta.putIfAbsent(Document.DEPT, Document.PUBLIC);
    String title = meta.getOrDefault("title", "").strip();
    Document doc = new Document(source, source, title.isEmpty() ? RawFile.baseName(file) : title,
        text, sections, List.of(), meta, raw.sha256());
    return new LoadResult(doc,
        decoded.warning().isEmpty() ? List.of() : List.of(decoded.warning()));
  }
}
