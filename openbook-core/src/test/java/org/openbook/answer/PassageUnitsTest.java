package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.answer.PassageUnits.Kind;
import org.openbook.answer.PassageUnits.Unit;

/** The quotable units of a passage and what must be quoted with them. */
class PassageUnitsTest {

  @Test
  void should_give_table_rows_with_their_header_and_never_the_header_or_delimiter_alone() {
    List<Unit> units = PassageUnits.of("## 价格\n价格如下表。\n\n| 型号 | 颜色 | 价格 |\n|---|:-:|---|\n"
        + "| KX-10 | 白 | 199 |\n| KX-20 | 黑 | 299 |\n");

    assertThat(units).extracting(Unit::text, Unit::kind, Unit::prefix).containsExactly(
        org.assertj.core.groups.Tuple.tuple("价格如下表。", Kind.SENTENCE, ""),
        org.assertj.core.groups.Tuple.tuple("| KX-10 | 白 | 199 |", Kind.TABLE_ROW,
            "| 型号 | 颜色 | 价格 |"),
        org.assertj.core.groups.Tuple.tuple("| KX-20 | 黑 | 299 |", Kind.TABLE_ROW,
            "| 型号 | 颜色 | 价格 |"));
    assertThat(units.get(1).block()).isEqualTo(units.get(2).block())
        .isNotEqualTo(units.get(0).block());
  }

  @Test
  void should_give_list_items_whole_with_the_lead_in_as_prefix() {
    List<Unit> units = PassageUnits.of("报销需要三步。审批顺序如下：\n\n- 部门经理审核。超过一万元还需总监签字。\n"
        + "- 财务复核，\n  周四统一付款。\n\n另行通知。");

    assertThat(units).extracting(Unit::text).containsExactly("报销需要三步。",
        "部门经理审核。超过一万元还需总监签字。", "财务复核， 周四统一付款。", "另行通知。");
    assertThat(units.get(1).prefix()).isEqualTo("审批顺序如下：");
    assertThat(units.get(2).prefix()).isEqualTo("审批顺序如下：");
    assertThat(units.get(1).kind()).isEqualTo(Kind.LIST_ITEM);
    assertThat(units.get(3).prefix()).isEmpty();
  }

  @Test
  void should_drop_a_lead_in_to_code_and_give_the_code_as_context_of_the_next_paragraph() {
    List<Unit> units = PassageUnits.of("启动时出现：\n\n```\nError: port 8080 already in use\n```\n\n"
        + "说明端口被占用。改用 --port 9090 启动即可。");

    assertThat(units).extracting(Unit::text)
        .containsExactly("说明端口被占用。", "改用 --port 9090 启动即可。");
    assertThat(units.get(0).context()).contains("启动时出现：").contains("port 8080 already in use");
    assertThat(units.get(1).context()).isEmpty();
  }

  @Test
  void should_start_a_new_paragraph_at_each_faq_line() {
    List<Unit> units = PassageUnits.of("Q：发票怎么开？\nA：在订单页申请电子发票。");

    assertThat(units).extracting(Unit::text)
        .containsExactly("Q：发票怎么开？", "A：在订单页申请电子发票。");
    assertThat(units.get(0).block()).isNotEqualTo(units.get(1).block());
  }
}
