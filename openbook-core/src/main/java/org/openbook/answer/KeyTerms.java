package org.openbook.answer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.WordlistLoader;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.util.IOUtils;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.analysis.QueryTerms;
import org.openbook.analysis.Synonyms;
import org.openbook.analysis.TextAnalysis;

/**
 * The key terms of a question: its identifiers and content words, with question words and
 * function words removed. Words come from the SmartChinese segmenter over Han runs (Lucene's HMM,
 * {@link OpenBookAnalysis.Strategy#SMARTCN}) and OpenBook's identifier-preserving tokenizer for
 * the rest, so {@code "云管家报错 ERR_4517 是什么意思"} gives {@code 云管家, 报错, ERR_4517} (the
 * segmenter may cut a long word into shorter ones). Dropped: one-character Han words (mostly
 * particles and measure words), numbers without letters, English function words (the Snowball
 * project's English stop list as Lucene ships it, {@code snowball/english_stop.txt}: have, does,
 * been, …), and the words of the resource {@code question-stopwords.txt} (interrogatives,
 * pronouns, modal verbs; e.g. 什么, 怎么办, 多少, many, long). Each term carries its tokens under the index's own analysis, so
 * containment is judged exactly as BM25 matches. Terms of the user's synonym list are kept whole.
 * Immutable and thread-safe.
 */
public final class KeyTerms {

  private static final Set<String> STOP_WORDS = loadStopWords();
  private static final OpenBookAnalysis WORDS = OpenBookAnalysis.of(OpenBookAnalysis.Strategy.SMARTCN);

  private final TextAnalysis index;
  private final Synonyms synonyms;

  /** @param index the analysis the BM25 index was built with (for the terms' tokens) */
  public KeyTerms(TextAnalysis index) {
    this(index, Synonyms.NONE);
  }

  /**
   * @param index    the analysis the BM25 index was built with (for the terms' tokens)
   * @param synonyms the user's synonym list: a listed term in a question is one key term even
   *                 where the segmenter would cut it ({@code 过滤网}, not {@code 过滤})
   */
  public KeyTerms(TextAnalysis index, Synonyms synonyms) {
    this.index = index;
    this.synonyms = synonyms;
  }

  /** The distinct key terms of {@code question}, in question order; may be empty. */
  public List<KeyTerm> of(String question) {
    Map<String, KeyTerm> out = new LinkedHashMap<>();
    // Terms of the synonym list first, kept whole; words overlapping them are skipped below.
    String lower = question.toLowerCase(Locale.ROOT);
    boolean[] listed = new boolean[question.length()];
    java.util.TreeMap<Integer, String> listedTerms = new java.util.TreeMap<>();
    for (String term : synonyms.terms()) {
      for (int i = lower.indexOf(term); i >= 0; i = lower.indexOf(term, i + 1)) {
        if (lower.length() == question.length()) {
          java.util.Arrays.fill(listed, i, i + term.length(), true);
          listedTerms.put(i, question.substring(i, i + term.length()));
        }
      }
    }
    try (TokenStream ts = WORDS.analyzer().tokenStream("text", question)) {
      OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        int start = Math.max(0, Math.min(offset.startOffset(), question.length()));
        int end = Math.max(start, Math.min(offset.endOffset(), question.length()));
        boolean inListed = false;
        for (int k = start; k < end && !inListed; k++) {
          inListed = listed[k];
        }
        if (inListed) {
          var first = listedTerms.floorEntry(end - 1);
          if (first != null) {
            add(out, first.getValue());
            listedTerms.remove(first.getKey());
          }
          continue;
        }
        String surface = question.substring(start, end).strip();
        if (surface.isEmpty() || isStopWord(surface)) {
          continue;
        }
        add(out, surface);
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // reading a String cannot fail
    }
    return List.copyOf(out.values());
  }

  private void add(Map<String, KeyTerm> out, String surface) {
    List<String> tokens = index.tokenize(surface);
    if (tokens.isEmpty()) {
      return;
    }
    boolean identifier = tokens.size() == 1 && QueryTerms.isIdentifier(tokens.get(0));
    out.putIfAbsent(String.join(" ", tokens),
        new KeyTerm(surface, tokens, identifier, isHan(surface)));
  }

  /** Whether {@code word} (as written) carries no subject matter; see the class comment. */
  static boolean isStopWord(String word) {
    String w = Normalizer.normalize(word, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    if (STOP_WORDS.contains(w)) {
      return true;
    }
    if (isHan(w) && w.codePointCount(0, w.length()) < 2) {
      return true;
    }
    return w.chars().allMatch(c -> Character.isDigit(c) || c == '.' || c == ',');
  }

  private static boolean isHan(String s) {
    return s.codePoints().anyMatch(
        cp -> Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN);
  }

  private static Set<String> loadStopWords() {
    Set<String> out = new HashSet<>();
    try (InputStream in = KeyTerms.class.getResourceAsStream("question-stopwords.txt")) {
      if (in == null) {
        throw new IllegalStateException("question-stopwords.txt missing from the class path");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line; (line = r.readLine()) != null; ) {
        int hash = line.indexOf('#');
        String body = hash >= 0 ? line.substring(0, hash) : line;
        for (String w : body.strip().split("\\s+")) {
          if (!w.isEmpty()) {
            out.add(w.toLowerCase(Locale.ROOT));
          }
        }
      }
      out.addAll(WordlistLoader.getSnowballWordSet(IOUtils.getDecodingReader(
          SnowballFilter.class, "english_stop.txt", StandardCharsets.UTF_8)).stream()
          .map(w -> new String((char[]) w)).toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Set.copyOf(out);
  }
}
