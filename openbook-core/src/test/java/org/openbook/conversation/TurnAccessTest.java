package org.openbook.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerDiagnostics;
import org.openbook.answer.AnswerStatus;
import org.openbook.answer.Answerer;
import org.openbook.chunk.Chunk;
import org.openbook.index.ChunkStore;
import org.openbook.index.IndexManifest;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;

/** Issue 30 item 6: stored turns are only as readable as the chunks they were written from. */
class TurnAccessTest {

  private static final Principal HR_NOW_PUBLIC = new Principal("hr", Set.of());
  private static final Principal HR = new Principal("hr", Set.of("hr"));

  /** A store that knows three chunks: one public, one hr, one finance. */
  private static final ChunkStore STORE = new ChunkStore() {
    @Override public IndexManifest manifest() {
      throw new UnsupportedOperationException();
    }

    @Override public long count() {
      return 3;
    }

    @Override public Optional<Chunk> get(String id) {
      String dept = id.startsWith("hr/") ? "hr" : id.startsWith("fin/") ? "finance"
          : id.startsWith("pub/") ? "public" : null;
      return dept == null ? Optional.empty() : Optional.of(new Chunk(id, id, 0, "t", "t",
          List.of(), 0, 0, 1, Map.of("source", id, "dept", dept)));
    }

    @Override public void close() {}
  };

  private static final TurnAccess ACCESS = new TurnAccess(STORE);

  private static Turn turn(String answer, List<String> cited, List<String> sources) {
    return new Turn("年假有几天？", "员工 年假有几天？", answer, cited, AnswerStatus.ANSWERED,
        sources);
  }

  @Test
  void i30_6_should_withhold_a_turn_citing_a_chunk_the_principal_can_no_longer_read() {
    Turn t = turn("年假为 7 天[1]。", List.of("hr/leave.md#0"), List.of("hr/leave.md#0"));

    Turn seen = ACCESS.visible(t, HR_NOW_PUBLIC);

    assertThat(seen.answer()).isEqualTo(TurnAccess.WITHHELD_ZH).doesNotContain("7 天");
    assertThat(seen.citedChunkIds()).isEmpty();
    assertThat(seen.sourceChunkIds()).isEmpty();
    assertThat(seen.standaloneQuestion()).isEqualTo("年假有几天？");
    assertThat(ACCESS.visible(t, HR)).isSameAs(t);
  }

  @Test
  void i30_6_should_withhold_a_turn_with_an_uncited_unreadable_source_or_a_vanished_chunk() {
    // cites a public chunk only, but was written with a finance passage in front of the model
    Turn uncited = turn("见[1]。", List.of("pub/a.md#0"), List.of("pub/a.md#0", "fin/b.md#0"));
    Turn vanished = turn("见[1]。", List.of("gone/c.md#0"), null);
    Turn publicOnly = turn("见[1]。", List.of("pub/a.md#0"), List.of("pub/a.md#0"));
    Turn refusal = new Turn("天气？", null, "根据现有文档无法回答该问题。", List.of(),
        AnswerStatus.REFUSED_NO_EVIDENCE);

    assertThat(ACCESS.readable(uncited, HR)).isFalse();
    assertThat(ACCESS.readable(vanished, HR)).isFalse();
    assertThat(ACCESS.readable(publicOnly, HR_NOW_PUBLIC)).isTrue();
    assertThat(ACCESS.readable(refusal, HR_NOW_PUBLIC)).isTrue();
    assertThat(TurnAccess.OPEN.readable(uncited, HR_NOW_PUBLIC)).isTrue();
  }

  @Test
  void i30_6_should_feed_the_rewriter_the_withheld_history_and_keep_the_stored_turn()
      throws IOException {
    List<List<Turn>> seen = new ArrayList<>();
    QuestionRewriter recording = (followUp, history) -> {
      seen.add(history);
      return followUp;
    };
    Answerer asker = (Query q, Answerer.Listener l) -> new Answer(AnswerStatus.ANSWERED, "好。",
        List.of(), List.of(), new AnswerDiagnostics("scripted", 0.8, 0.5, List.of(), List.of(),
            List.of(), 1, 1, "", ""));
    var store = new InMemoryConversationStore();
    Turn secret = turn("年假为 7 天[1]，总监审批[1]。", List.of("hr/leave.md#0"),
        List.of("hr/leave.md#0"));
    store.save(new Conversation("c-1", "hr", List.of(secret)));
    var service = new ConversationService(asker, recording, store, ACCESS);

    service.ask("c-1", Query.of("那病假呢？", HR_NOW_PUBLIC, 5), new Answerer.Listener() {});

    assertThat(seen).hasSize(1);
    assertThat(seen.get(0).get(0).answer()).isEqualTo(TurnAccess.WITHHELD_ZH);
    assertThat(seen.get(0).toString()).doesNotContain("7 天").doesNotContain("hr/leave")
        .doesNotContain("员工 年假");
    assertThat(store.find("c-1").orElseThrow().turns().get(0)).isEqualTo(secret);
  }

  @Test
  void i30_6_should_read_a_turn_stored_before_source_ids_with_its_cited_ids_as_sources()
      throws IOException {
    Turn old = new com.fasterxml.jackson.databind.ObjectMapper().readValue("""
        {"question": "年假有几天？", "standaloneQuestion": "", "answer": "7 天[1]。",
         "citedChunkIds": ["hr/leave.md#0"], "status": "ANSWERED"}""", Turn.class);

    assertThat(old.sourceChunkIds()).containsExactly("hr/leave.md#0");
    assertThat(ACCESS.readable(old, HR_NOW_PUBLIC)).isFalse();
  }
}
