package org.openbook.analysis;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.text.ParseException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.synonym.SolrSynonymParser;
import org.apache.lucene.util.CharsRef;

/**
 * A user-maintained synonym list ({@code analysis.synonyms}) in the Solr/Elasticsearch synonym
 * format, parsed by Lucene's {@link SolrSynonymParser}:
 *
 * <pre>
 * # comment
 * 过滤网, 滤网, 滤芯          equivalent terms: each one maps to all the others
 * 班车 =&gt; 通勤巴士          one-way: a question's 班车 also means 通勤巴士
 * </pre>
 *
 * Each entry is one whole term (the parser is given a keyword analyzer, so a phrase is not cut
 * into words); terms are NFKC-folded and lower-cased. The map is applied at query time only (BM25
 * query expansion by {@link #expand}, key-term coverage of the answer gate), so editing the file
 * needs no re-index: it is re-read whenever an engine is opened (ingest, serve, search, ask).
 * Immutable and thread-safe.
 */
public final class Synonyms {

  /** No synonyms. */
  public static final Synonyms NONE = new Synonyms(Map.of());

  /** term → the terms it also means (never itself), in file order. */
  private final Map<String, Set<String>> map;

  private Synonyms(Map<String, Set<String>> map) {
    this.map = map;
  }

  /**
   * Reads a synonym file (UTF-8).
   *
   * @throws IllegalArgumentException naming the file and line of a malformed entry
   * @throws UncheckedIOException     naming the file when it cannot be read
   */
  public static Synonyms load(Path file) {
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return parse(r, file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read synonym file " + file + ": " + e.getMessage(), e);
    }
  }

  /** Parses synonym rules given as text (see the class comment for the format). */
  public static Synonyms parse(String rules) {
    try {
      return parse(new StringReader(rules), "synonym rules");
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringReader does not fail
    }
  }

  private static Synonyms parse(Reader rules, String where) throws IOException {
    Map<String, Set<String>> map = new LinkedHashMap<>();
    try (Analyzer keyword = new KeywordAnalyzer()) {
      SolrSynonymParser parser = new SolrSynonymParser(true, true, keyword) {
        @Override
        public void add(CharsRef input, CharsRef output, boolean includeOrig) {
          String in = fold(input.toString());
          String out = fold(output.toString());
          if (!in.isEmpty() && !out.isEmpty() && !in.equals(out)) {
            map.computeIfAbsent(in, k -> new LinkedHashSet<>()).add(out);
          }
        }
      };
      parser.parse(rules);
    } catch (ParseException e) {
      throw new IllegalArgumentException("malformed synonym entry in " + where + " (line "
          + e.getErrorOffset() + "): " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("malformed synonym entry in " + where + ": "
          + e.getMessage(), e);
    }
    Map<String, Set<String>> frozen = new LinkedHashMap<>();
    map.forEach((k, v) -> frozen.put(k, Set.copyOf(new LinkedHashSet<>(v))));
    return new Synonyms(Map.copyOf(frozen));
  }

  /** Whether there are no rules. */
  public boolean isEmpty() {
    return map.isEmpty();
  }

  /** Number of terms that have synonyms. */
  public int size() {
    return map.size();
  }

  /** Every term that has synonyms (folded), e.g. to keep it whole when segmenting a question. */
  public Set<String> terms() {
    return map.keySet();
  }

  /** The terms {@code term} also means (not itself); empty when it has none. */
  public Set<String> of(String term) {
    return map.getOrDefault(fold(term), Set.of());
  }

  /**
   * The query text for the BM25 route: {@code query} followed by the synonyms of every listed
   * term it contains (as a substring, since Chinese has no spaces; Latin terms only at word
   * boundaries), each once. The original text comes first and is unchanged, so the original
   * terms keep their weight and the synonyms only add recall.
   */
  public String expand(String query) {
    if (map.isEmpty()) {
      return query;
    }
    String folded = fold(query);
    Set<String> extra = new LinkedHashSet<>();
    for (Map.Entry<String, Set<String>> e : map.entrySet()) {
      if (containsTerm(folded, e.getKey())) {
        for (String s : e.getValue()) {
          if (!containsTerm(folded, s)) {
            extra.add(s);
          }
        }
      }
    }
    return extra.isEmpty() ? query : query + " " + String.join(" ", List.copyOf(extra));
  }

  /**
   * Whether folded {@code text} contains folded {@code term}: anywhere for a term that starts and
   * ends with a Han character, else not inside a longer Latin word or number.
   */
  static boolean containsTerm(String text, String term) {
    int from = 0;
    while (true) {
      int i = text.indexOf(term, from);
      if (i < 0) {
        return false;
      }
      int end = i + term.length();
      boolean leftOk = i == 0 || !isWordChar(text.codePointBefore(i))
          || !isWordChar(term.codePointAt(0));
      boolean rightOk = end == text.length() || !isWordChar(text.codePointAt(end))
          || !isWordChar(term.codePointBefore(term.length()));
      if (leftOk && rightOk) {
        return true;
      }
      from = i + 1;
    }
  }

  /** A Latin letter or digit (Han characters have no word boundaries to respect). */
  private static boolean isWordChar(int cp) {
    return Character.isLetterOrDigit(cp)
        && Character.UnicodeScript.of(cp) != Character.UnicodeScript.HAN;
  }

  /** NFKC, lower case, inner whitespace collapsed. */
  static String fold(String s) {
    return Normalizer.normalize(s, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT).strip()
        .replaceAll("\\s+", " ");
  }

  /** One token per entry, lower-cased: synonym terms stay whole. */
  private static final class KeywordAnalyzer extends Analyzer {
    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
      Tokenizer t = new KeywordTokenizer();
      return new TokenStreamComponents(t, new LowerCaseFilter(t));
    }
  }
}
