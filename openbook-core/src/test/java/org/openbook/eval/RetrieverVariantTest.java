package org.openbook.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.retrieve.MinMaxFusion;
import org.openbook.retrieve.RrfFusion;

class RetrieverVariantTest {

  @Test
  void should_build_named_and_parametrised_configurations() {
    List<RetrieverVariant> cs = RetrieverVariant.parse(
        "dense, bm25,hybrid,rrf:k=20:s=2,minmax:d=0.3,rrf", null, null, null,
        new MinMaxFusion(1, 1));

    assertThat(cs).extracting(RetrieverVariant::name)
        .containsExactly("dense", "bm25", "hybrid", "rrf:k=20:s=2", "minmax:d=0.3", "rrf");
    assertThat(cs).extracting(RetrieverVariant::hasDense)
        .containsExactly(true, false, true, true, true, true);
    assertThat(cs.get(2).description()).isEqualTo("dense+bm25 minmax(dense=1.0,sparse=1.0)");
    assertThat(cs.get(5).description()).isEqualTo("dense+bm25 rrf(k=60.0,dense=1.0,sparse=1.0)");
    assertThat(cs.get(3).description()).isEqualTo("dense+bm25 rrf(k=20.0,dense=1.0,sparse=2.0)");
    assertThat(cs.get(4).description()).isEqualTo("dense+bm25 minmax(dense=0.3,sparse=0.7)");
  }

  @Test
  void should_name_the_bad_entry() {
    assertThatThrownBy(() -> RetrieverVariant.parse("hybrid,colbert", null, null, null,
        RrfFusion.DEFAULT)).hasMessageStartingWith("unknown configuration 'colbert'");
    assertThatThrownBy(() -> RetrieverVariant.parse("rrf:k=abc", null, null, null,
        RrfFusion.DEFAULT)).hasMessage("configuration 'rrf:k=abc': 'k=abc' is not a number");
  }
}
