package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.answer.AnswerStatus;
import org.openbook.conversation.Conversation;
import org.openbook.conversation.Turn;

class ConversationLibraryTest {
  @TempDir Path dir;

  private static Turn turn(String q) {
    return new Turn(q, q, "answer to " + q, List.of("a.md#0"), AnswerStatus.ANSWERED);
  }

  @Test
  void should_accept_an_issued_id_only_for_its_owner() throws Exception {
    ConversationLibrary c = new ConversationLibrary(dir, Clock.systemUTC());
    String id = c.start("visitor");

    assertThat(c.require(id, "visitor", "conversationId").id()).isEqualTo(id);
    assertThat(c.find(id)).map(Conversation::owner).contains("visitor");
    assertThatThrownBy(() -> c.require(id, "hr", "conversationId"))
        .isInstanceOfSatisfying(ApiException.class, e -> {
          assertThat(e.status()).isEqualTo(404);
          assertThat(e.field()).isEqualTo("conversationId");
        });
    assertThatThrownBy(() -> c.require("made-up", "visitor", "id"))
        .isInstanceOf(ApiException.class);
    assertThatThrownBy(() -> c.rename(id, "hr", "x")).isInstanceOf(ApiException.class);
    assertThatThrownBy(() -> c.delete(id, "hr")).isInstanceOf(ApiException.class);
  }

  @Test
  void should_keep_conversations_titles_and_turns_across_a_restart_per_owner() throws Exception {
    ConversationLibrary c = new ConversationLibrary(dir,
        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));
    String a = c.start("visitor");
    c.save(c.find(a).orElseThrow().with(turn("年假有几天？")));
    String b = c.start("hr");
    c.save(c.find(b).orElseThrow().with(turn("q1")).with(turn("q2")));
    c.rename(b, "hr", "请假");
    String empty = c.start("visitor");

    ConversationLibrary reopened = new ConversationLibrary(dir, Clock.systemUTC());

    assertThat(reopened.list("visitor")).extracting(ConversationLibrary.Stored::id)
        .containsExactly(a);
    assertThat(ConversationLibrary.titleOf(reopened.list("visitor").get(0)))
        .isEqualTo("年假有几天？");
    assertThat(reopened.list("hr")).singleElement().satisfies(s -> {
      assertThat(s.title()).isEqualTo("请假");
      assertThat(s.turns()).extracting(Turn::question).containsExactly("q1", "q2");
    });
    assertThat(reopened.find(empty)).isEmpty();
    reopened.delete(a, "visitor");
    assertThat(reopened.list("visitor")).isEmpty();
    assertThat(Files.exists(dir.resolve(a + ".json"))).isFalse();
  }
}
