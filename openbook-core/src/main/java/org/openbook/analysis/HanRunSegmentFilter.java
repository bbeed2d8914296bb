package org.openbook.analysis;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.cn.smart.HMMChineseTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;

/**
 * Splits each {@link IdentifierTokenizer#HAN_RUN} token into words with Lucene SmartChinese's
 * {@link HMMChineseTokenizer} (hidden Markov model over its bundled dictionary); other tokens pass
 * through. Segmenting only Han runs keeps identifiers away from the segmenter, which would cut
 * {@code ERR_4517} at the underscore.
 */
final class HanRunSegmentFilter extends TokenFilter {

  /** Token type of a segmented Chinese word. */
  static final String HAN_WORD = "<HAN_WORD>";

  /** The segmenter's words for the current run: term, start, end (relative to the run). */
  private record Word(String term, int start, int end) {}

  private final HMMChineseTokenizer segmenter = new HMMChineseTokenizer();
  private final CharTermAttribute segTerm = segmenter.addAttribute(CharTermAttribute.class);
  private final OffsetAttribute segOffset = segmenter.addAttribute(OffsetAttribute.class);
  private final CharTermAttribute termAtt = addAttribute(CharTermAttribute.class);
  private final OffsetAttribute offsetAtt = addAttribute(OffsetAttribute.class);
  private final TypeAttribute typeAtt = addAttribute(TypeAttribute.class);
  private final Deque<Word> pending = new ArrayDeque<>();
  private State runState;
  private int runStart;
  private int runEnd;

  HanRunSegmentFilter(TokenStream input) {
    super(input);
  }

  @Override
  public boolean incrementToken() throws IOException {
    while (pending.isEmpty()) {
      if (!input.incrementToken()) {
        return false;
      }
      if (!IdentifierTokenizer.HAN_RUN.equals(typeAtt.type())) {
        return true;
      }
      segment(termAtt.toString());
      runState = captureState();
      runStart = offsetAtt.startOffset();
      runEnd = offsetAtt.endOffset();
    }
    Word w = pending.poll();
    restoreState(runState);
    termAtt.setEmpty().append(w.term());
    // Normalisation rarely changes a Han char's length (supplementary compatibility ideographs,
    // a few Traditional forms), so run-relative offsets add up; clamping keeps them inside the
    // run when it does.
    offsetAtt.setOffset(
        Math.min(runStart + w.start(), runEnd), Math.min(runStart + w.end(), runEnd));
    typeAtt.setType(HAN_WORD);
    return true;
  }

  private void segment(String run) throws IOException {
    segmenter.setReader(new StringReader(run));
    try {
      segmenter.reset();
      while (segmenter.incrementToken()) {
        pending.add(new Word(segTerm.toString(), segOffset.startOffset(), segOffset.endOffset()));
      }
      segmenter.end();
    } finally {
      // Closing makes the segmenter ready for the next run's setReader.
      segmenter.close();
    }
  }

  @Override
  public void reset() throws IOException {
    super.reset();
    pending.clear();
    runState = null;
  }
}
