package org.openbook.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.document.office.OfficeSamples;

class FolderAccessTest {

  private static final FolderAccess RULES = new FolderAccess(Map.of(
      "hr/", List.of("hr"), "finance", List.of("Finance"), "hr/payroll/", List.of("payroll")));

  @TempDir Path tmp;

  private DocumentReader reader() {
    return new DocumentReader(Loaders.defaults(), DocumentReader.DEFAULT_MAX_BYTES, RULES);
  }

  @Test
  void should_give_an_office_file_without_metadata_its_folders_department() throws Exception {
    Path f = tmp.resolve("stores.xlsx");
    OfficeSamples.workbook(f, 5, true, false);

    assertThat(reader().read(f, "finance/q1/stores.xlsx").document().dept()).isEqualTo("finance");
    assertThat(reader().read(f, "hr/payroll/stores.xlsx").document().dept()).isEqualTo("payroll");
    assertThat(reader().read(f, "hr/stores.xlsx").document().dept()).isEqualTo("hr");
    assertThat(reader().read(f, "hrx/stores.xlsx").document().dept()).isEqualTo("public");
  }

  @Test
  void should_keep_agreeing_front_matter_and_skip_a_conflict() throws Exception {
    Path agree = tmp.resolve("a.md");
    Files.writeString(agree, "---\ndept: hr\n---\n# 假期\n年假五天。\n");
    Path conflict = tmp.resolve("b.md");
    Files.writeString(conflict, "---\ndept: finance\n---\n# 假期\n年假五天。\n");

    assertThat(reader().read(agree, "hr/a.md").document().dept()).isEqualTo("hr");
    assertThatThrownBy(() -> reader().read(conflict, "hr/b.md"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.BAD_METADATA))
        .hasMessageContaining("hr/b.md").hasMessageContaining("conflict");
  }

  @Test
  void should_reject_a_rule_without_exactly_one_department() {
    assertThatThrownBy(() -> new FolderAccess(Map.of("hr/", List.of())))
        .hasMessageContaining("access.folders.hr/");
  }
}
