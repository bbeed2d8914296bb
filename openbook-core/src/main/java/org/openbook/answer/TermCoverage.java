package org.openbook.answer;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.openbook.analysis.Synonyms;
import org.openbook.analysis.TextAnalysis;
import org.openbook.embed.Embedder;
import org.openbook.embed.InputTooLongException;
import org.openbook.index.AccessFilter;
import org.openbook.index.ChunkStore.TermStatistics;

/**
 * Gate 2 for extractive answers: which of the question's key terms ({@link KeyTerms}) the
 * passages an answer uses cover, and how.
 *
 * <ol>
 *   <li>{@link Kind#EXACT}: the passage holds all the term's index tokens (the BM25 analysis, so
 *       {@code GB/T 22239} matches {@code gb/t22239});
 *   <li>{@link Kind#SYNONYM}: it holds a synonym of the term from the user's list
 *       ({@code analysis.synonyms});
 *   <li>{@link Kind#MEANING}: for a Han, non-identifier term only, a content word of the passage
 *       whose embedding cosine with the term reaches {@code minCosine} (过滤 → 滤芯 0.74,
 *       带薪假 → 年假 0.67). Identifiers are never covered by meaning ({@code ERR_4519} and
 *       {@code ERR_4517} score 0.95), nor are Latin words (bge-small-zh reads many of them as the
 *       same unknown token);
 *   <li>otherwise {@link Kind#MISSING}.
 * </ol>
 *
 * <p>A non-identifier term in a script the passages do not use at all (a Chinese word against
 * English passages, or the reverse) is not judged: words are not matched across languages, and
 * the dense route that found the passage already spoke for it.
 *
 * <p>Document frequencies ({@link #undocumented}, coverage by meaning, IDF weights) are counted
 * over what the asking principal may read: {@link #within} gives the coverage for one
 * principal's filter, so a term that only another department's documents hold reads exactly as
 * a term no document holds. An instance not narrowed by {@link #within} has no statistics
 * (every weight 1, no term undocumented).
 *
 * Thread-safe if the embedder is.
 */
public final class TermCoverage {

  /**
   * Cosine (bge-small-zh-v1.5) at which a passage word covers a question term by meaning.
   * Measured on word pairs from kb-demo and the bug cases: synonyms 过滤→滤芯 0.740, 过滤网→滤芯
   * 0.695, 带薪假→年假 0.670; unrelated pairs 天气→温度 0.635, CADR→PM2.5 0.632, 价格→学费 0.600,
   * 班车→巴士 0.427, 食堂→公司 0.400. Word vectors of this small model do not separate well
   * (时候→同时 0.729, 员工→工作 0.739 on kb-demo's answers), which is why coverage by meaning is
   * tried only for a term the corpus never contains (document frequency 0: a vocabulary
   * mismatch, the case synonyms are for), and only at 0.69.
   */
  public static final double DEFAULT_MIN_COSINE = 0.69;

  /** How a key term is covered. */
  public enum Kind { EXACT, SYNONYM, MEANING, MISSING }

  /**
   * One key term's coverage.
   *
   * @param term         the question's term
   * @param kind         how it is covered
   * @param documentTerm the passage's term that covers it (the synonym or the close word), or
   *                     the term itself for EXACT, empty for MISSING
   * @param weight       its IDF weight (≥ 0)
   */
  public record Match(KeyTerm term, Kind kind, String documentTerm, double weight) {}

  /**
   * The coverage of all key terms.
   *
   * @param matches one per key term, in question order
   */
  public record Report(List<Match> matches) {
    public Report {
      matches = List.copyOf(matches);
    }

    /** IDF-weighted share of the key terms covered in any way, in [0, 1]; 1 with no terms. */
    public double coveredShare() {
      double total = 0;
      double covered = 0;
      for (Match m : matches) {
        total += m.weight();
        covered += m.kind() == Kind.MISSING ? 0 : m.weight();
      }
      if (total > 0) {
        return covered / total;
      }
      return matches.isEmpty() ? 1.0
          : (double) matches.stream().filter(m -> m.kind() != Kind.MISSING).count()
              / matches.size();
    }

    /** The missing terms, in question order. */
    public List<KeyTerm> missing() {
      return matches.stream().filter(m -> m.kind() == Kind.MISSING).map(Match::term).toList();
    }

    /** The missing identifiers, in question order. */
    public List<KeyTerm> missingIdentifiers() {
      return missing().stream().filter(KeyTerm::identifier).toList();
    }

    /** Terms covered by a synonym or by meaning, with the document term taken for them. */
    public List<Match> mapped() {
      return matches.stream()
          .filter(m -> m.kind() == Kind.SYNONYM || m.kind() == Kind.MEANING).toList();
    }
  }

  private final KeyTerms keyTerms;
  private final KeyTerms passageWords;
  private final TextAnalysis analysis;
  private final TermStatistics stats;
  private final TermWeights weights;
  private final Synonyms synonyms;
  private final Embedder embedder;
  private final double minCosine;
  /** Word vectors, reused across questions (passages repeat); cleared when large. */
  private final Map<String, float[]> vectors;

  /**
   * @param analysis  the index's analysis
   * @param stats     the index's term statistics (counted per principal, see {@link #within});
   *                  null for none
   * @param synonyms  the user's synonym list
   * @param embedder  for coverage by meaning; null to switch it off
   * @param minCosine cosine in [-1, 1] for coverage by meaning
   */
  public TermCoverage(TextAnalysis analysis, TermStatistics stats, Synonyms synonyms,
      Embedder embedder, double minCosine) {
    if (!(minCosine >= -1 && minCosine <= 1)) {
      throw new IllegalArgumentException("coverage minCosine must be in [-1, 1], got " + minCosine);
    }
    this.keyTerms = new KeyTerms(analysis, synonyms);
    this.passageWords = new KeyTerms(analysis);
    this.analysis = analysis;
    this.stats = stats;
    this.weights = TermWeights.UNIFORM;
    this.synonyms = synonyms;
    this.embedder = embedder;
    this.minCosine = minCosine;
    this.vectors = new ConcurrentHashMap<>();
  }

  private TermCoverage(TermCoverage base, TermWeights weights) {
    this.keyTerms = base.keyTerms;
    this.passageWords = base.passageWords;
    this.analysis = base.analysis;
    this.stats = base.stats;
    this.weights = weights;
    this.synonyms = base.synonyms;
    this.embedder = base.embedder;
    this.minCosine = base.minCosine;
    this.vectors = base.vectors;
  }

  /**
   * This coverage with document frequencies counted over the chunks {@code scope} allows (the
   * asking principal's filter), fresh for one question; word vectors stay shared.
   */
  public TermCoverage within(AccessFilter scope) {
    return new TermCoverage(this, stats == null ? TermWeights.UNIFORM
        : new TermWeights(stats, scope));
  }

  /** The key terms of {@code question}. */
  public List<KeyTerm> keyTerms(String question) {
    return keyTerms.of(question);
  }

  /** The IDF weight of {@code term}. */
  public double weight(KeyTerm term) {
    return weights.idf(term);
  }

  /** How {@code passages} (the texts the answer quotes from) cover the key terms of {@code question}. */
  public Report check(String question, List<String> passages) {
    Set<String> tokens = new HashSet<>();
    for (String p : passages) {
      tokens.addAll(analysis.tokenize(p));
    }
    List<Match> out = new ArrayList<>();
    List<KeyTerm> unmatched = new ArrayList<>();
    boolean han = passages.stream().anyMatch(TermCoverage::hasHan);
    boolean latin = passages.stream().anyMatch(TermCoverage::hasLatin);
    for (KeyTerm t : keyTerms.of(question)) {
      // Words cannot be matched across languages: a Chinese term against English passages (or
      // the reverse) is left to the dense route, which found the passage. Identifiers are codes
      // in any language and are always judged.
      if (!t.identifier() && (t.han() ? !han : !latin)) {
        continue;
      }
      double w = weights.idf(t);
      if (tokens.containsAll(t.tokens())) {
        out.add(new Match(t, Kind.EXACT, t.text(), w));
        continue;
      }
      String synonym = "";
      for (String s : synonyms.of(t.text())) {
        List<String> st = analysis.tokenize(s);
        if (!st.isEmpty() && tokens.containsAll(st)) {
          synonym = s;
          break;
        }
      }
      if (!synonym.isEmpty()) {
        out.add(new Match(t, Kind.SYNONYM, synonym, w));
      } else {
        out.add(new Match(t, Kind.MISSING, "", w));
        unmatched.add(t);
      }
    }
    if (embedder != null && unmatched.stream().anyMatch(this::meaningful)) {
      byMeaning(out, passages);
    }
    return new Report(out);
  }

  /**
   * A combination the question asks for that no table row of {@code passages} holds: two key
   * terms of the question found in body cells of different columns of a Markdown table (terms in
   * the header name columns and are left out) that share no row of any table. "物联网设备开发
   * 高级班" against a course table whose 物联网设备开发 rows are 入门 and 进阶 only: every term
   * is covered, the row is not. Terms of one column are alternatives, not a combination
   * ("从入门学到高级" asks for two rows).
   *
   * @param passages the texts the answer quotes from (raw chunk text)
   * @return the cell texts of the first such pair (e.g. {@code [物联网设备开发, 高级]}); empty
   *     when every such pair shares a row or no table cell holds two of the terms
   */
  public List<String> missingRow(String question, List<String> passages) {
    List<KeyTerm> terms = keyTerms.of(question);
    // per term: the (table, row, column, cell) of every body cell holding it
    Map<KeyTerm, List<String[]>> hits = new LinkedHashMap<>();
    int table = 0;
    for (String p : passages) {
      int block = -1;
      Set<String> header = Set.of();
      int row = 0;
      for (PassageUnits.Unit u : PassageUnits.of(p)) {
        if (u.kind() != PassageUnits.Kind.TABLE_ROW) {
          continue;
        }
        if (u.block() != block) {
          block = u.block();
          table++;
          row = 0;
          header = new HashSet<>(analysis.tokenize(u.prefix()));
        }
        row++;
        List<String> cells = PassageUnits.cells(u.text());
        for (int c = 0; c < cells.size(); c++) {
          Set<String> cellTokens = new HashSet<>(analysis.tokenize(cells.get(c)));
          for (KeyTerm t : terms) {
            if (!header.containsAll(t.tokens()) && cellTokens.containsAll(t.tokens())) {
              hits.computeIfAbsent(t, k -> new ArrayList<>())
                  .add(new String[] {table + ":" + row, table + ":" + c, cells.get(c)});
            }
          }
        }
      }
    }
    List<KeyTerm> found = terms.stream().filter(hits::containsKey).distinct().toList();
    for (int i = 0; i < found.size(); i++) {
      for (int j = i + 1; j < found.size(); j++) {
        List<String[]> a = hits.get(found.get(i));
        List<String[]> b = hits.get(found.get(j));
        Set<String> rowsA = new HashSet<>();
        Set<String> colsA = new HashSet<>();
        a.forEach(h -> {
          rowsA.add(h[0]);
          colsA.add(h[1]);
        });
        boolean sharedRow = b.stream().anyMatch(h -> rowsA.contains(h[0]));
        boolean sharedColumn = b.stream().anyMatch(h -> colsA.contains(h[1]));
        if (!sharedRow && !sharedColumn) {
          return a.get(0)[2].equals(b.get(0)[2]) ? List.of(a.get(0)[2])
              : List.of(a.get(0)[2], b.get(0)[2]);
        }
      }
    }
    return List.of();
  }

  private static boolean hasHan(String text) {
    return text.codePoints().anyMatch(
        c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN);
  }

  private static boolean hasLatin(String text) {
    return text.codePoints().anyMatch(
        c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.LATIN);
  }

  /** Replaces MISSING Han terms by MEANING where a passage word is close enough. */
  private void byMeaning(List<Match> matches, List<String> passages) {
    Map<String, KeyTerm> words = new LinkedHashMap<>();
    for (String p : passages) {
      for (KeyTerm w : passageWords.of(p)) {
        if (w.han() && !w.identifier()) {
          words.putIfAbsent(w.text(), w);
        }
      }
    }
    if (words.isEmpty()) {
      return;
    }
    if (vectors.size() > 50_000) {
      vectors.clear();
    }
    List<String> todo = new ArrayList<>();
    for (String w : words.keySet()) {
      if (!vectors.containsKey(w)) {
        todo.add(w);
      }
    }
    for (Match m : matches) {
      if (m.kind() == Kind.MISSING && meaningful(m.term())
          && !vectors.containsKey(m.term().text())) {
        todo.add(m.term().text());
      }
    }
    try {
      embedAll(todo);
    } catch (InputTooLongException e) {
      return; // words are short; should one not be, coverage stays lexical
    }
    for (int i = 0; i < matches.size(); i++) {
      Match m = matches.get(i);
      if (m.kind() != Kind.MISSING || !meaningful(m.term())) {
        continue;
      }
      float[] q = vectors.get(m.term().text());
      String best = "";
      double bestCos = minCosine;
      for (String w : words.keySet()) {
        double c = dot(q, vectors.get(w));
        if (c >= bestCos) {
          bestCos = c;
          best = w;
        }
      }
      if (!best.isEmpty()) {
        matches.set(i, new Match(m.term(), Kind.MEANING, best, m.weight()));
      }
    }
  }

  /** A Han, non-identifier term the index never contains: the case for coverage by meaning. */
  private boolean meaningful(KeyTerm t) {
    return t.han() && !t.identifier() && weights.docFreq(t) == 0;
  }

  /**
   * Whether {@code term} names a subject the documents lack: no chunk contains it
   * ({@link #undocumented}) and it is not a general Chinese word ({@link GeneralWords}: 东西,
   * 网上, 回来 are phrasing, not subjects). Identifiers and non-Han terms count whenever
   * undocumented.
   */
  public boolean missingSubject(KeyTerm term) {
    return undocumented(term)
        && (term.identifier() || !term.han() || !GeneralWords.common(term.text()));
  }

  /**
   * Whether no chunk the caller may read contains {@code term} (always false without
   * statistics).
   */
  public boolean undocumented(KeyTerm term) {
    return weights.docCount() > 0 && weights.docFreq(term) == 0;
  }

  private void embedAll(List<String> texts) {
    for (int from = 0; from < texts.size(); from += 64) {
      List<String> batch = texts.subList(from, Math.min(texts.size(), from + 64));
      List<float[]> v = embedder.embedAll(batch);
      for (int k = 0; k < batch.size(); k++) {
        vectors.put(batch.get(k), v.get(k));
      }
    }
  }

  private static double dot(float[] a, float[] b) {
    double d = 0;
    for (int i = 0; i < a.length; i++) {
      d += a[i] * b[i];
    }
    return d;
  }
}
