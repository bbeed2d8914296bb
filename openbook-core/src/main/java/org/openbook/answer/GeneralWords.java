package org.openbook.answer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.analysis.cn.smart.hhmm.HHMMSegmenter;
import org.apache.lucene.analysis.cn.smart.hhmm.SegToken;

/**
 * Whether a Chinese word is general vocabulary, judged by its frequency in the background corpus
 * of Lucene's SmartChineseAnalyzer word dictionary (the weight {@link HHMMSegmenter} gives a
 * dictionary word; the dictionary is built from a large news corpus, where 的 counts 358,156).
 *
 * <p>Why: a word the knowledge base never contains has the highest IDF the index can give, so
 * a chatty question (东西, 网上, 回来, 别的) looks as if it named a missing subject. Such words
 * are phrasing, not subjects; a subject the documents lack is also rare in general language
 * (颗粒物 7, 保修 18, 食堂 80) or not in the dictionary at all (CADR).
 *
 * <p>Thread-safe; results are cached.
 */
final class GeneralWords {

  /**
   * Dictionary frequency from which a word counts as general vocabulary: 网上 116, 别的 154,
   * 回来 309, 东西 681, 发现 2068 against 食堂 80, 总共 83, 保修 18, 颗粒物 7.
   */
  static final int COMMON_FREQUENCY = 100;

  private static final Map<String, Boolean> CACHE = new ConcurrentHashMap<>();

  private GeneralWords() {}

  /**
   * Whether {@code word} is one dictionary word of frequency ≥ {@link #COMMON_FREQUENCY}; false
   * for text that is not a single dictionary word (non-Han text, unknown words, phrases).
   */
  static boolean common(String word) {
    if (word.isBlank() || CACHE.size() > 100_000) {
      return false;
    }
    return CACHE.computeIfAbsent(word, GeneralWords::lookUp);
  }

  private static boolean lookUp(String word) {
    // A new segmenter per look-up: it keeps no state between calls and is cheap to create.
    List<SegToken> tokens = new HHMMSegmenter().process(word);
    // The segmenter brackets the text with start and end markers.
    List<SegToken> words = tokens.stream()
        .filter(t -> t.endOffset > t.startOffset && t.startOffset >= 0
            && new String(t.charArray).equals(word))
        .toList();
    return !words.isEmpty() && words.get(0).weight >= COMMON_FREQUENCY;
  }
}
