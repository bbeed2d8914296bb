package org.openbook.document;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.openbook.testing.SharedData;

/** Locates the shared data sets and checks the {@link Document} offset contract. */
final class TestData {

  private TestData() {}

  /** {@code shared/<relative>}, skipping the test when it is absent. */
  static Path shared(String relative) {
    return SharedData.require(relative);
  }

  /**
   * Sections are in order, non-overlapping, inside the text, and never blank; pages likewise.
   */
  static void assertOffsetContract(Document doc) {
    assertThat(doc.sections()).as("%s has sections", doc.source()).isNotEmpty();
    int previousEnd = 0;
    for (Section s : doc.sections()) {
      assertThat(s.start()).as("%s section starts after the previous one", doc.source())
          .isGreaterThanOrEqualTo(previousEnd);
      assertThat(s.end()).as("%s section inside text", doc.source())
          .isLessThanOrEqualTo(doc.text().length());
      assertThat(doc.text().substring(s.start(), s.end()))
          .as("%s section [%d,%d)", doc.source(), s.start(), s.end()).isNotBlank();
      previousEnd = s.end();
    }
    int pageEnd = 0;
    for (PageSpan p : doc.pages()) {
      assertThat(p.start()).isGreaterThanOrEqualTo(pageEnd);
      assertThat(p.end()).isGreaterThanOrEqualTo(p.start()).isLessThanOrEqualTo(doc.text().length());
      pageEnd = p.end();
    }
  }

  /** The text of every section, in order. */
  static List<String> sectionTexts(Document doc) {
    return doc.sections().stream().map(s -> doc.text().substring(s.start(), s.end())).toList();
  }
}
