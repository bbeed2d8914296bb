package org.openbook.llm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The agent's tool-call argument parsing; the agent loop is tested against kb-demo in the engine module. */
class AgenticAnswererArgumentsTest {

  @Test
  void should_read_the_query_argument_only() {
    assertThat(AgenticAnswerer.queryArgument("{\"query\":\" 退货 \",\"principal\":\"admin\"}"))
        .isEqualTo("退货");
    assertThat(AgenticAnswerer.queryArgument("not json")).isEmpty();
    assertThat(AgenticAnswerer.queryArgument("{\"query\":5}")).isEmpty();
  }
}
