package org.openbook.answer;

import java.util.List;

/**
 * One sentence of a checked answer.
 *
 * @param text      the sentence as it stands in the cleaned answer text, markers included
 * @param citations the valid source numbers it cites, distinct, in order of appearance; empty when
 *                  it cites nothing
 */
public record CitedSentence(String text, List<Integer> citations) {

  public CitedSentence {
    citations = List.copyOf(citations);
  }
}
