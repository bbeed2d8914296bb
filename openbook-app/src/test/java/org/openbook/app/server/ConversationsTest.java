package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.answer.AnswerStatus;
import org.openbook.conversation.Conversation;
import org.openbook.conversation.Turn;

class ConversationsTest {

  @Test
  void should_accept_an_issued_id_only_for_its_owner() {
    Conversations c = new Conversations(10);
    String id = c.start("visitor");

    assertThat(c.require(id, "visitor")).isEqualTo(id);
    assertThat(c.find(id)).map(Conversation::owner).contains("visitor");
    assertThatThrownBy(() -> c.require(id, "hr"))
        .isInstanceOfSatisfying(ApiException.class, e -> {
          assertThat(e.status()).isEqualTo(404);
          assertThat(e.field()).isEqualTo("conversationId");
        });
    assertThatThrownBy(() -> c.require("made-up", "visitor")).isInstanceOf(ApiException.class);
  }

  @Test
  void should_forget_the_least_recently_used_conversation_beyond_capacity() {
    Conversations c = new Conversations(2);
    String a = c.start("visitor");
    String b = c.start("visitor");
    c.save(c.find(a).orElseThrow().with(
        new Turn("q", "q", "answer", List.of(), AnswerStatus.ANSWERED)));
    c.start("visitor");

    assertThat(c.find(a).orElseThrow().turns()).hasSize(1);
    assertThat(c.find(b)).isEmpty();
  }
}
