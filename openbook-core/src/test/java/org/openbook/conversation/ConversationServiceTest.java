package org.openbook.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerDiagnostics;
import org.openbook.answer.AnswerStatus;
import org.openbook.answer.Answerer;
import org.openbook.answer.Citation;
import org.openbook.answer.GenerationException;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;

class ConversationServiceTest {

  private static final Principal VISITOR = new Principal("visitor", Set.of());
  private static final Answerer.Listener SILENT = new Answerer.Listener() {};

  /** Records the questions it was asked and answers each citing chunk {@code c<call>}. */
  private static final class RecordingAsker implements Answerer {
    final List<String> asked = new ArrayList<>();

    @Override
    public Answer ask(Query query, Answerer.Listener listener) {
      asked.add(query.text());
      String chunk = "c" + asked.size();
      return new Answer(AnswerStatus.ANSWERED, "答" + asked.size() + "[1]。",
          List.of(new Citation(1, chunk, "a.md", true)), List.of(),
          new AnswerDiagnostics("scripted", 0.8, 0.5, List.of(), List.of(), List.of(), 1, 1, "",
              ""));
    }
  }

  private static Query query(String text, Principal p) {
    return Query.of(text, p, 5);
  }

  @Test
  void should_retrieve_with_the_rewrite_and_report_it_in_the_diagnostics() throws IOException {
    RecordingAsker asker = new RecordingAsker();
    var store = new InMemoryConversationStore();
    var service = new ConversationService(asker, new KeyTermCarryOver(), store);

    Answer first = service.ask("c-1", query("跨境订单的质量问题退货要在签收后几天内申请？", VISITOR), SILENT);
    Answer second = service.ask("c-1", query("那退款多久发起？", VISITOR), SILENT);

    assertThat(asker.asked).containsExactly("跨境订单的质量问题退货要在签收后几天内申请？",
        "跨境订单 质量问题退货 签收后 申请 那退款多久发起？");
    assertThat(first.diagnostics().rewrittenQuestion()).isEmpty();
    assertThat(second.diagnostics().rewrittenQuestion())
        .isEqualTo("跨境订单 质量问题退货 签收后 申请 那退款多久发起？");
    Conversation stored = store.find("c-1").orElseThrow();
    assertThat(stored.owner()).isEqualTo("visitor");
    assertThat(stored.turns()).extracting(Turn::question)
        .containsExactly("跨境订单的质量问题退货要在签收后几天内申请？", "那退款多久发起？");
    assertThat(stored.turns().get(1).citedChunkIds()).containsExactly("c2");
    assertThat(stored.turns().get(1).answer()).isEqualTo("答2[1]。");
  }

  @Test
  void should_fall_back_to_key_term_carry_over_when_the_rewriter_fails() throws IOException {
    RecordingAsker asker = new RecordingAsker();
    QuestionRewriter failing = (q, h) -> {
      throw new GenerationException("LLM endpoint http://127.0.0.1:1/v1 failed: HTTP 500");
    };
    var service = new ConversationService(asker, failing, new InMemoryConversationStore());

    service.ask("c-2", query("跨境订单的质量问题退货要在签收后几天内申请？", VISITOR), SILENT);
    Answer second = service.ask("c-2", query("那退款多久发起？", VISITOR), SILENT);

    assertThat(second.diagnostics().rewrittenQuestion())
        .isEqualTo("跨境订单 质量问题退货 签收后 申请 那退款多久发起？");
    assertThat(second.diagnostics().reason())
        .isEqualTo("question rewrite failed (LLM endpoint http://127.0.0.1:1/v1 failed: HTTP 500);"
            + " used key-term carry-over");
  }

  @Test
  void should_refuse_to_continue_another_principals_conversation() throws IOException {
    var service = new ConversationService(new RecordingAsker(), new KeyTermCarryOver(),
        new InMemoryConversationStore());
    service.ask("shared", query("年假有几天？", new Principal("hr", Set.of("hr"))), SILENT);

    assertThatThrownBy(() -> service.ask("shared", query("那病假呢？", VISITOR), SILENT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("conversation 'shared' belongs to another principal; start a new conversation id");
  }

  @Test
  void should_reject_an_id_that_is_not_safe_as_a_file_name() {
    var service = new ConversationService(new RecordingAsker(), new KeyTermCarryOver(),
        new InMemoryConversationStore());

    assertThatThrownBy(() -> service.ask("../etc/passwd", query("年假有几天？", VISITOR), SILENT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("conversation id must be 1-64 characters from [A-Za-z0-9_-], got '../etc/passwd'");
  }

  @Test
  void should_persist_turns_as_json_and_read_them_back(@TempDir Path dir) throws IOException {
    var store = new JsonFileConversationStore(dir.resolve("conversations"));
    var service = new ConversationService(new RecordingAsker(), new KeyTermCarryOver(), store);
    service.ask("cli-1", query("跨境订单的质量问题退货要在签收后几天内申请？", VISITOR), SILENT);

    // a new store instance, as in the next CLI run
    var reread = new JsonFileConversationStore(dir.resolve("conversations")).find("cli-1");

    assertThat(reread).isPresent();
    assertThat(reread.get().turns()).containsExactly(new Turn("跨境订单的质量问题退货要在签收后几天内申请？",
        "跨境订单的质量问题退货要在签收后几天内申请？", "答1[1]。", List.of("c1"), AnswerStatus.ANSWERED));
    assertThat(Files.list(dir.resolve("conversations")).map(p -> p.getFileName().toString()))
        .containsExactly("cli-1.json");
  }

  @Test
  void should_name_the_file_when_a_stored_conversation_is_corrupt(@TempDir Path dir)
      throws IOException {
    Files.writeString(dir.resolve("bad.json"), "{\"id\":\"bad\",\"turns\":[");
    var store = new JsonFileConversationStore(dir);

    assertThatThrownBy(() -> store.find("bad"))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("conversation file " + dir.resolve("bad.json") + " is not valid");
    assertThat(store.find("absent")).isEmpty();
  }
}
