package org.openbook.document;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Folder-level access rules: every file under a folder belongs to that folder's department, for
 * every format (office files and PDFs have no front matter). Configuration:
 * {@code access: {folders: {hr/: [hr], finance/: [finance]}}}.
 *
 * <p>The deepest matching folder decides. A document whose own metadata (front matter, HTML
 * {@code <meta name="dept">}) names no department or {@value Document#PUBLIC} is given the folder's
 * department; one that names another department is skipped as a conflict
 * ({@link LoadException.Reason#BAD_METADATA}) rather than indexed under either: fail closed.
 * Immutable and thread-safe.
 */
public final class FolderAccess {

  /** No folder rules. */
  public static final FolderAccess NONE = new FolderAccess(Map.of());

  /** folder prefix ({@code hr/}, '/'-separated, relative to the corpus root) → department. */
  private final Map<String, String> folders;
  private final boolean uploadsOnlyInRuledFolders;

  /**
   * @param folders folder → departments; each folder must name exactly one department (a document
   *                has one), given without surrounding slashes or with a trailing one
   * @throws IllegalArgumentException naming the folder when its department list is not exactly
   *     one non-blank name, or the folder is blank or absolute
   */
  public FolderAccess(Map<String, List<String>> folders) {
    this(folders, false);
  }

  /**
   * As {@link #FolderAccess(Map)}.
   *
   * @param uploadsOnlyInRuledFolders whether uploads are taken only into folders a rule covers
   *     (see {@link #uploadsOnlyInRuledFolders()})
   */
  public FolderAccess(Map<String, List<String>> folders, boolean uploadsOnlyInRuledFolders) {
    this.uploadsOnlyInRuledFolders = uploadsOnlyInRuledFolders;
    Map<String, String> m = new LinkedHashMap<>();
    folders.entrySet().stream()
        .sorted(Comparator.comparingInt((Map.Entry<String, List<String>> e) -> e.getKey().length())
            .reversed())
        .forEach(e -> {
          // the form sources have: NFC, no leading "./" (see CorpusWalker.sourceOf)
          String folder = e.getKey() == null ? "" : java.text.Normalizer.normalize(
              e.getKey().strip().replace('\\', '/'), java.text.Normalizer.Form.NFC)
              .replaceFirst("^(\\./)+", "");
          if (folder.isEmpty() || folder.startsWith("/") || folder.equals("/")) {
            throw new IllegalArgumentException("access.folders: folder '" + e.getKey()
                + "' must be a path relative to the documents folder, e.g. hr/");
          }
          List<String> depts = e.getValue();
          if (depts == null || depts.size() != 1 || depts.get(0) == null
              || depts.get(0).isBlank()) {
            throw new IllegalArgumentException("access.folders." + e.getKey()
                + ": give exactly one department, e.g. [hr] (got " + depts + ")");
          }
          m.put(folder.endsWith("/") ? folder : folder + "/",
              depts.get(0).strip().toLowerCase(Locale.ROOT));
        });
    this.folders = Map.copyOf(m);
  }

  /**
   * Whether a writer may upload only into folders a rule covers. In such a folder every indexed
   * document has the folder's department (one naming another is a conflict, never indexed), so a
   * writer that reads it cannot meet a document it may not read there, and a refused upload tells
   * it nothing about which names exist; in a folder without a rule, a name held by another
   * department's document is refused, which a writer can notice.
   */
  public boolean uploadsOnlyInRuledFolders() {
    return uploadsOnlyInRuledFolders;
  }

  /** Whether any folder rule is configured. */
  public boolean hasRules() {
    return !folders.isEmpty();
  }

  /** The department for {@code source} from the deepest matching folder, or null. */
  public String departmentOf(String source) {
    String best = null;
    int bestLength = -1;
    for (Map.Entry<String, String> e : folders.entrySet()) {
      if (source.startsWith(e.getKey()) && e.getKey().length() > bestLength) {
        best = e.getValue();
        bestLength = e.getKey().length();
      }
    }
    return best;
  }

  /**
   * Applies the rule to a loaded document.
   *
   * @return {@code loaded} unchanged when no folder matches or its department already agrees,
   *     else a copy whose document has the folder's department
   * @throws LoadException BAD_METADATA when the document names a different department
   */
  public LoadResult apply(String source, LoadResult loaded) throws LoadException {
    String dept = departmentOf(source);
    Document d = loaded.document();
    if (dept == null || dept.equals(d.dept())) {
      return loaded;
    }
    if (!d.dept().equals(Document.PUBLIC)) {
      throw new LoadException(LoadException.Reason.BAD_METADATA, source + ": its metadata says"
          + " dept '" + d.dept() + "' but access.folders gives its folder to '" + dept
          + "'; conflict, not indexed");
    }
    Map<String, String> meta = new LinkedHashMap<>(d.meta());
    meta.put(Document.DEPT, dept);
    Document copy = new Document(d.id(), d.source(), d.title(), d.text(), d.sections(), d.pages(),
        meta, d.contentHash(), d.cells());
    return new LoadResult(copy, loaded.warnings(), loaded.ocrPages(), loaded.ocrMillis());
  }
}
