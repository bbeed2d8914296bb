package org.openbook.conversation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.openbook.answer.AnswerLanguage;
import org.openbook.chunk.Chunk;
import org.openbook.index.ChunkStore;
import org.openbook.retrieve.Principal;

/**
 * Which stored turns a principal may still read. A turn's answer text was written from its
 * sources, so it is only as readable as they are: when any chunk it cites or was written from is
 * of a department the principal cannot read now (its departments shrank since), or is gone from
 * the index (its department can no longer be checked), the turn is shown {@link Turn#withheld
 * withheld}: a notice instead of the answer, no chunk ids. Applied wherever a stored answer is
 * shown or reused: the conversation reply, the history a follow-up is rewritten from, the answer
 * stored with feedback. The stored turn itself is kept, so it shows again if the rights come
 * back. Thread-safe if the store is.
 */
public final class TurnAccess {

  /** The notice of a withheld answer, Chinese. */
  public static final String WITHHELD_ZH = "（此回答已隐去：它依据的文档您现在无权查看。）";
  /** The notice of a withheld answer, English. */
  public static final String WITHHELD_EN =
      "(This answer is withheld: it was written from documents you can no longer read.)";

  /** Every turn readable: for stores without an index behind them (tests, tools). */
  public static final TurnAccess OPEN = new TurnAccess(null);

  private final ChunkStore store;

  /** @param store the index the turns' chunk ids refer to; null reads every turn */
  public TurnAccess(ChunkStore store) {
    this.store = store;
  }

  /** Whether {@code who} may read every chunk {@code turn} cites or was written from. */
  public boolean readable(Turn turn, Principal who) {
    if (store == null) {
      return true;
    }
    Set<String> ids = new LinkedHashSet<>(turn.citedChunkIds());
    ids.addAll(turn.sourceChunkIds());
    try {
      for (String id : ids) {
        Optional<Chunk> c = store.get(id);
        if (c.isEmpty() || !who.departments().contains(c.get().dept())) {
          return false;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot check the sources of a stored turn", e);
    }
    return true;
  }

  /** {@code turn} as {@code who} may see it: itself, or withheld with the notice. */
  public Turn visible(Turn turn, Principal who) {
    if (readable(turn, who)) {
      return turn;
    }
    return turn.withheld(AnswerLanguage.of(turn.question()) == AnswerLanguage.ZH
        ? WITHHELD_ZH : WITHHELD_EN);
  }

  /** {@link #visible(Turn, Principal)} of each turn, in order. */
  public List<Turn> visible(List<Turn> turns, Principal who) {
    List<Turn> out = new ArrayList<>(turns.size());
    for (Turn t : turns) {
      out.add(visible(t, who));
    }
    return out;
  }
}
