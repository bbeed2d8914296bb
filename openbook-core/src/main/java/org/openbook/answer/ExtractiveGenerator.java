package org.openbook.answer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.openbook.embed.BoundedInput;
import org.openbook.embed.Embedder;
import org.openbook.embed.Vectors;
import org.openbook.index.AccessFilter;

/**
 * Answers without an LLM by quoting the passages' best sentences, each cited.
 *
 * <p>Every unit of every source ({@link PassageUnits}: a sentence, a list item, a table row) is
 * scored by the number of distinct question features (Han bigrams and lower-cased words, English
 * stop words skipped; no IDF) it contains, plus half the features only the other sentences of
 * its paragraph hold ({@link #CONTEXT_WEIGHT}). The best {@code maxSentences} with a positive
 * score are picked, at most {@code maxPerSource} per source (ties go to the better-ranked source,
 * then the earlier unit); a unit after the first must reach {@link #MIN_RELATIVE_SCORE} of the
 * best score. Each pick is quoted with what belongs to it ({@link #expand}: a table row with its
 * header, a short list whole with its lead-in, the relevant sentences of a short paragraph, a
 * sentence continuing it), in source rank order, then document order, each followed by its
 * {@code [n]}. When no sentence overlaps the
 * question the reply is the refusal sentence: passing gate 1 only says a passage is near the
 * question, and quoting a sentence that shares no word with it would pass an unrelated passage
 * off as the answer (this is the extractive counterpart of the LLM's refusal). The text starts with a label saying it
 * is an extract ({@code （摘录）} for Chinese questions, {@code (Extract) } for English ones).
 * Deterministic; the whole text is passed to {@code onText} once.
 *
 * <p>A question asking for a total over table rows ({@code 从入门到高级总共多少课时}) gets the sum
 * first ({@link TableAggregation}: operands, result and unit, cited with the sources holding the
 * rows, e.g. {@code 家电售后维修 入门、进阶、高级 的课时合计：24 + 36 + 48 = 108[1]。}), then the
 * quotes as above, with every summed row of a quoted source among them (the operands can be read
 * in their rows); when the question does not clearly ask for a sum, nothing is added.
 *
 * <p>With an embedder ({@link #ExtractiveGenerator(RefusalPolicy, TermCoverage, Embedder)})
 * sentences are also chosen by meaning: the candidate sentences are embedded with the question's
 * bounded form ({@link org.openbook.embed.BoundedInput}) and each sentence scores
 * {@code overlap share + cosine}, where the overlap share is the shared-feature count divided by
 * the question's feature count; a sentence sharing no feature qualifies when its cosine reaches
 * {@link #MIN_SENTENCE_COSINE}, so a paraphrased question still gets its sentence. Quoted
 * sentences stay verbatim and cited either way.
 *
 * <p>With a {@link TermCoverage} (gate 2) the key terms of the question must be covered by the
 * passages the answer cites: a missing identifier ({@code ERR_4519} when only {@code ERR_4517} is
 * documented), or an IDF-weighted covered share below {@link #MIN_COVERED_SHARE} with a missing
 * subject that no chunk of the index contains ({@link TermCoverage#missingSubject}: general words
 * such as 东西 or 网上 are phrasing, not subjects), gives the refusal
 * sentence followed by {@code 文档中没有关于 X 的说明。} ({@code The documents say nothing about
 * X.}); a question asking for a table row no row holds (two values of different columns that
 * never share a row, {@link TermCoverage#missingRow}) is refused with
 * {@code 文档中没有 X + Y 的条目。}; a partly covered question gets its extract followed by the
 * same sentence for the terms
 * not covered; a term covered by a synonym or by meaning is named with the document term taken
 * for it ({@code （“过滤网”按文档中的“滤芯”理解。）}).
 */
public final class ExtractiveGenerator implements Generator {

  /** Default label for Chinese questions. */
  public static final String LABEL_ZH = "（摘录）";
  /** Default label for English questions. */
  public static final String LABEL_EN = "(Extract) ";

  /**
   * Cosine (bge-small-zh-v1.5) at which a sentence with no word in common with the question is
   * still a candidate: question–sentence pairs in kb-demo's paraphrase cases score 0.55–0.75,
   * sentences about other subjects mostly below 0.5.
   */
  public static final double MIN_SENTENCE_COSINE = 0.5;

  /**
   * Gate 2: the share of the question's key-term IDF mass the cited passages must cover, else
   * the answer is refused. Measured on kb-demo, see docs/BENCHMARKS.md ("Gate 2").
   */
  public static final double MIN_COVERED_SHARE = 0.5;

  /**
   * A unit after the first is quoted only when it scores at least this share of the best
   * unit's score: a sentence that merely shares a common word with the question ("A second
   * office opened in Chengdu…") is not appended to an answer about something else.
   */
  public static final double MIN_RELATIVE_SCORE = 0.6;

  /**
   * Weight of question features that only the other sentences of a unit's paragraph hold,
   * relative to the unit's own: the paragraph is the sentence's context, not its content.
   */
  static final double CONTEXT_WEIGHT = 0.5;

  /** A paragraph of at most this many sentences is quoted whole: it is one statement. */
  static final int MAX_PARAGRAPH_SENTENCES = 3;
  /** A list of at most this many items is quoted whole with its lead-in. */
  static final int MAX_LIST_ITEMS = 6;
  /** A paragraph or list longer than this (characters) is never quoted whole. */
  static final int MAX_BLOCK_CHARS = 320;

  /**
   * A sentence opening that refers back to the sentence before it (该/此/这/其…, This/It…):
   * such a sentence is quoted with the one it continues.
   */
  static final Pattern CONTINUATION = Pattern.compile(
      "(?:该|此|这|那|其|它|他|她|上述|以上|因此|所以|否则)|(?:This|That|These|Those|It|They|Such|Otherwise)\\b");

  private final RefusalPolicy refusal;
  private final TermCoverage coverage;
  private final Embedder embedder;
  private final int maxSentences;
  private final int maxPerSource;
  /** Sentence vectors, reused across questions; cleared when large. */
  private final java.util.Map<String, float[]> sentenceVectors =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final String labelZh;
  private final String labelEn;

  /** Three sentences, at most two per source, default labels. */
  public ExtractiveGenerator(RefusalPolicy refusal) {
    this(refusal, 3, 2, LABEL_ZH, LABEL_EN);
  }

  /**
   * Three sentences, at most two per source, default labels, with gate 2 and sentence choice by
   * meaning.
   *
   * @param coverage key-term coverage (gate 2); null to switch gate 2 off
   * @param embedder embeds question and sentences; null to choose by words only
   */
  public ExtractiveGenerator(RefusalPolicy refusal, TermCoverage coverage, Embedder embedder) {
    this(refusal, coverage, embedder, 3, 2, LABEL_ZH, LABEL_EN);
  }

  /**
   * @param refusal      returned when there is nothing to quote
   * @param maxSentences sentences to quote, ≥ 1
   * @param maxPerSource sentences per source, ≥ 1
   * @param labelZh      prefix for Chinese questions, may be empty
   * @param labelEn      prefix for English questions, may be empty
   */
  public ExtractiveGenerator(
      RefusalPolicy refusal, int maxSentences, int maxPerSource, String labelZh, String labelEn) {
    this(refusal, null, null, maxSentences, maxPerSource, labelZh, labelEn);
  }

  private ExtractiveGenerator(RefusalPolicy refusal, TermCoverage coverage, Embedder embedder,
      int maxSentences, int maxPerSource, String labelZh, String labelEn) {
    if (maxSentences < 1 || maxPerSource < 1) {
      throw new IllegalArgumentException(
          "maxSentences and maxPerSource must be >= 1, got " + maxSentences + ", " + maxPerSource);
    }
    this.refusal = refusal;
    this.coverage = coverage;
    this.embedder = embedder;
    this.maxSentences = maxSentences;
    this.maxPerSource = maxPerSource;
    this.labelZh = labelZh;
    this.labelEn = labelEn;
  }

  @Override
  public String id() {
    return "extractive";
  }

  /**
   * {@inheritDoc}
   *
   * <p>Without the caller's filter, gate 2 counts document frequencies over the departments of
   * {@code sources} (and {@code public}): never more than the caller may read.
   */
  @Override
  public String generate(String question, List<Source> sources, Consumer<String> onText) {
    Set<String> depts = new HashSet<>(Set.of(org.openbook.document.Document.PUBLIC));
    for (Source s : sources) {
      if (s.hit() != null) {
        depts.add(s.hit().chunk().dept());
      }
    }
    return generate(question, sources, new AccessFilter(depts), onText);
  }

  @Override
  public String generate(String question, List<Source> sources, AccessFilter scope,
      Consumer<String> onText) {
    // gate 2's document frequencies count only what the caller may read
    TermCoverage coverage = this.coverage == null ? null : this.coverage.within(scope);
    AnswerLanguage lang = AnswerLanguage.of(question);
    Picks picks = pick(question, sources, coverage);
    List<Candidate> picked = picks.picked();
    String text;
    if (picked.isEmpty()) {
      text = refusal.sentenceFor(lang);
      if (coverage != null) {
        // Say which code the documents lack, when that is why nothing matched.
        List<KeyTerm> lacking = coverage.check(question,
            sources.stream().map(ExtractiveGenerator::indexed).toList()).missingIdentifiers();
        if (!lacking.isEmpty()) {
          text += (lang == AnswerLanguage.ZH ? "" : " ")
              + CoverageNotes.notDocumented(lacking, lang);
        }
      }
    } else {
      List<Source> used = withNeighbours(picked.stream().map(Candidate::source).distinct()
          .toList(), sources);
      TermCoverage.Report covered = coverage == null ? null
          : coverage.check(question, used.stream().map(ExtractiveGenerator::indexed).toList());
      // Refuse for a missing code, or when too little is covered and something missing is in
      // no document at all; terms the corpus has elsewhere are phrasing, not a missing subject.
      // A table row the question asks for (two column values together) that no row holds.
      List<String> noRow = coverage == null ? List.of()
          : coverage.missingRow(question, picked.stream().map(c -> c.source().text()).distinct()
              .toList());
      if (!noRow.isEmpty()) {
        text = refusal.sentenceFor(lang) + (lang == AnswerLanguage.ZH ? "" : " ")
            + CoverageNotes.noEntry(noRow, lang);
      } else if (covered != null && (!covered.missingIdentifiers().isEmpty()
          || (covered.coveredShare() < MIN_COVERED_SHARE
              && covered.missing().stream().anyMatch(coverage::missingSubject)))) {
        List<KeyTerm> lacking = covered.missingIdentifiers();
        if (lacking.isEmpty()) {
          lacking = covered.missing().stream().filter(coverage::missingSubject).toList();
        }
        text = refusal.sentenceFor(lang) + (lang == AnswerLanguage.ZH ? "" : " ")
            + CoverageNotes.notDocumented(lacking, lang);
      } else {
        StringBuilder sb = new StringBuilder(lang == AnswerLanguage.ZH ? labelZh : labelEn);
        Map<Integer, Set<Integer>> summedRows = new HashMap<>();
        for (TableSum sum : TableAggregation.sums(question, sources)) {
          appendSum(sb, sum, lang);
          sum.rows().forEach(r -> summedRows.computeIfAbsent(r.n(), k -> new HashSet<>())
              .add(r.unit()));
        }
        appendQuotes(sb, picked, picks.all(), summedRows);
        if (covered != null) {
          appendNotes(sb, covered, coverage, lang);
        }
        // a link copied from a document must not become a live link in our answer
        text = InertLinks.of(sb.toString().strip());
      }
    }
    onText.accept(text);
    return text;
  }

  /** The mapping of terms taken to mean a document term, then the terms not covered. */
  private static void appendNotes(StringBuilder sb, TermCoverage.Report covered,
      TermCoverage coverage, AnswerLanguage lang) {
    for (TermCoverage.Match m : covered.mapped()) {
      sb.append(lang == AnswerLanguage.ZH ? "" : " ")
          .append(CoverageNotes.mapped(m.term().text(), m.documentTerm(), lang));
    }
    // Named only when no document has the term: a word the corpus uses elsewhere (屋里, 以后)
    // is not something "the documents say nothing about".
    List<KeyTerm> absent = covered.missing().stream().filter(coverage::missingSubject).toList();
    if (!absent.isEmpty()) {
      sb.append(lang == AnswerLanguage.ZH ? "" : " ")
          .append(CoverageNotes.notDocumented(absent, lang));
    }
  }

  /**
   * The {@code cited} sources and the sources that are the chunk just before or after one of
   * them in the same document: a chunk boundary is arbitrary, so an answer quoted from one chunk
   * is read with its neighbour (the error message in one, its explanation in the next).
   */
  static List<Source> withNeighbours(List<Source> cited, List<Source> sources) {
    List<Source> out = new ArrayList<>(cited);
    for (Source s : sources) {
      if (s.hit() == null || out.contains(s)) {
        continue;
      }
      for (Source c : cited) {
        if (c.hit() != null && c.hit().chunk().docId().equals(s.hit().chunk().docId())
            && Math.abs(c.hit().chunk().ordinal() - s.hit().chunk().ordinal()) == 1) {
          out.add(s);
          break;
        }
      }
    }
    return out;
  }

  /** The passage as indexed (title and heading path with the text): what coverage reads. */
  private static String indexed(Source s) {
    return s.hit() == null ? s.text() : s.hit().chunk().embedText();
  }

  /**
   * With gate 2 on: when some source contains one of the question's identifiers, only such
   * sources are quoted, so the cited passages hold the code the question asks about.
   */
  private static List<Source> quotable(String question, List<Source> sources,
      TermCoverage coverage) {
    if (coverage == null) {
      return sources;
    }
    List<KeyTerm> ids = coverage.keyTerms(question).stream().filter(KeyTerm::identifier).toList();
    if (ids.isEmpty()) {
      return sources;
    }
    List<Source> withId = new ArrayList<>();
    for (Source s : sources) {
      TermCoverage.Report r = coverage.check(question, List.of(indexed(s)));
      if (r.missingIdentifiers().size() < ids.size()) {
        withId.add(s);
      }
    }
    return withId.isEmpty() ? sources : withId;
  }

  private Picks pick(String question, List<Source> given, TermCoverage coverage) {
    List<Source> sources = quotable(question, given, coverage);
    Set<String> q = LexicalFeatures.of(question);
    List<Candidate> all = new ArrayList<>();
    for (int rank = 0; rank < sources.size(); rank++) {
      Source s = sources.get(rank);
      List<PassageUnits.Unit> units = PassageUnits.of(s.text());
      List<Set<String>> own = new ArrayList<>();
      List<Boolean> direct = new ArrayList<>();
      for (PassageUnits.Unit u : units) {
        // Matched with the code block its paragraph explains; the table header and list
        // lead-in are shared by every row or item, so they do not set one apart.
        Set<String> f = new HashSet<>(LexicalFeatures.of(u.text()));
        f.retainAll(q);
        direct.add(!f.isEmpty());
        if (!u.context().isEmpty()) {
          f.addAll(LexicalFeatures.of(u.context()));
          f.retainAll(q);
        }
        own.add(f);
      }
      for (int pos = 0; pos < units.size(); pos++) {
        // A sentence is read in its paragraph: question features only its neighbours hold
        // count at half weight (the subject named one sentence earlier, the figure here).
        Set<String> around = new HashSet<>();
        if (units.get(pos).kind() == PassageUnits.Kind.SENTENCE) {
          for (int i = 0; i < units.size(); i++) {
            if (i != pos && units.get(i).block() == units.get(pos).block()) {
              around.addAll(own.get(i));
            }
          }
          around.removeAll(own.get(pos));
        }
        int overlap = own.get(pos).size();
        double lexical = overlap == 0 ? 0 : overlap + CONTEXT_WEIGHT * around.size();
        all.add(new Candidate(s, rank, pos, units, overlap, around.size(), direct.get(pos),
            lexical));
      }
    }
    if (embedder != null && !all.isEmpty()) {
      all = byMeaning(question, q.size(), all);
    }
    List<Candidate> best =
        all.stream()
            .filter(c -> c.score() > 0)
            .sorted(Comparator.comparingDouble(Candidate::score).reversed()
                .thenComparingInt(Candidate::rank)
                .thenComparingInt(Candidate::position))
            .toList();
    List<Candidate> picked = new ArrayList<>();
    Set<String> quoted = new HashSet<>();
    Map<Integer, Integer> perSource = new HashMap<>();
    for (Candidate c : best) {
      if (picked.size() == maxSentences
          || (!picked.isEmpty() && c.score() < MIN_RELATIVE_SCORE * best.get(0).score())) {
        break; // sorted: every later unit scores lower still
      }
      if (quoted.contains(c.rank() + ":" + c.position())) {
        continue; // already quoted with a unit of its paragraph or list
      }
      if (perSource.merge(c.rank(), 1, Integer::sum) <= maxPerSource) {
        picked.add(c);
        for (int pos : expand(c.units(), c.position(), relevant(all, c.rank()))) {
          quoted.add(c.rank() + ":" + pos);
        }
      }
    }
    // No unit shares a word with the question: quoting one anyway would present an
    // unrelated passage as the answer, so the caller refuses instead (extractive gate 2).
    picked.sort(Comparator.comparingInt(Candidate::rank).thenComparingInt(Candidate::position));
    return new Picks(picked, all);
  }

  /** The picked candidates (in source rank, then document order) and all candidates. */
  private record Picks(List<Candidate> picked, List<Candidate> all) {}

  /** Positions of the units of source {@code rank} that bear on the question by themselves. */
  private static Set<Integer> relevant(List<Candidate> all, int rank) {
    Set<Integer> out = new HashSet<>();
    for (Candidate c : all) {
      if (c.rank() == rank && c.relevant()) {
        out.add(c.position());
      }
    }
    return out;
  }

  /**
   * The positions quoted for the unit at {@code pos}, in document order: a sentence with the
   * other {@code relevant} sentences of its paragraph when that is short
   * ({@link #MAX_PARAGRAPH_SENTENCES}), and with the next sentence when that continues it
   * ({@link #CONTINUATION}); a list item with the whole list when that is short
   * ({@link #MAX_LIST_ITEMS}): a short list is one statement, like a table; a table row alone
   * (its header is quoted with it as its prefix).
   *
   * @param relevant positions of units that share a feature with the question or are close to
   *                 it in meaning
   */
  static List<Integer> expand(List<PassageUnits.Unit> units, int pos, Set<Integer> relevant) {
    PassageUnits.Unit u = units.get(pos);
    List<Integer> block = new ArrayList<>();
    int chars = 0;
    for (int i = 0; i < units.size(); i++) {
      if (units.get(i).block() == u.block()) {
        block.add(i);
        chars += units.get(i).text().length();
      }
    }
    return switch (u.kind()) {
      case TABLE_ROW -> List.of(pos);
      case LIST_ITEM -> block.size() <= MAX_LIST_ITEMS && chars <= MAX_BLOCK_CHARS
          ? block : List.of(pos);
      case SENTENCE -> {
        boolean whole = block.size() <= MAX_PARAGRAPH_SENTENCES && chars <= MAX_BLOCK_CHARS;
        java.util.TreeSet<Integer> out = new java.util.TreeSet<>();
        for (int i : block) {
          if (i == pos || (whole && relevant.contains(i))) {
            out.add(i);
          }
        }
        for (int i : List.copyOf(out)) {
          if (i + 1 < units.size() && units.get(i + 1).block() == u.block()
              && CONTINUATION.matcher(units.get(i + 1).text()).lookingAt()) {
            out.add(i + 1);
          }
        }
        yield List.copyOf(out);
      }
    };
  }

  /**
   * The answer body: the picked units with what {@link #expand} adds, each cited, and in the
   * sources quoted anyway the rows a sum added up ({@code summedRows}: source number → unit
   * positions), so that every operand can be read in its row.
   */
  private static void appendQuotes(StringBuilder sb, List<Candidate> picked,
      List<Candidate> all, Map<Integer, Set<Integer>> summedRows) {
    // Positions to quote per source rank, in document order.
    Map<Integer, java.util.TreeSet<Integer>> byRank = new java.util.TreeMap<>();
    Map<Integer, Candidate> anyOf = new HashMap<>();
    for (Candidate c : picked) {
      byRank.computeIfAbsent(c.rank(), r -> new java.util.TreeSet<>())
          .addAll(expand(c.units(), c.position(), relevant(all, c.rank())));
      anyOf.putIfAbsent(c.rank(), c);
    }
    for (Map.Entry<Integer, Candidate> e : anyOf.entrySet()) {
      byRank.get(e.getKey()).addAll(summedRows.getOrDefault(e.getValue().source().n(), Set.of()));
    }
    for (Map.Entry<Integer, java.util.TreeSet<Integer>> e : byRank.entrySet()) {
      Candidate c = anyOf.get(e.getKey());
      int n = c.source().n();
      int lastBlock = -1;
      StringBuilder rows = new StringBuilder();
      for (int pos : e.getValue()) {
        PassageUnits.Unit u = c.units().get(pos);
        boolean first = u.block() != lastBlock;
        if (first && !rows.isEmpty()) {
          appendCited(sb, rows.toString(), n);
          rows.setLength(0);
        }
        lastBlock = u.block();
        if (u.kind() == PassageUnits.Kind.TABLE_ROW) {
          // Rows of one table: the header once, then the rows, one citation for the group.
          if (first && !u.prefix().isEmpty()) {
            rows.append(u.prefix());
          }
          rows.append(rows.isEmpty() ? "" : " ").append(u.text());
          continue;
        }
        appendCited(sb, (first ? u.prefix() : "") + u.text(), n);
      }
      if (!rows.isEmpty()) {
        appendCited(sb, rows.toString(), n);
      }
    }
  }

  /** Appends the statement of a table sum with the citations of its rows and a full stop. */
  private static void appendSum(StringBuilder sb, TableSum sum, AnswerLanguage lang) {
    sb.append(sum.statement(lang));
    sum.citations().forEach(n -> sb.append(CitationMarkers.of(n)));
    sb.append(lang == AnswerLanguage.ZH ? "。" : ". ");
  }

  /** Appends {@code sentence} with {@code [n]} placed before its end punctuation. */
  private static void appendCited(StringBuilder sb, String sentence, int n) {
    String bare = CitationMarkers.strip(sentence).strip();
    int end = bare.length();
    while (end > 0 && "。！？.!?；;".indexOf(bare.charAt(end - 1)) >= 0) {
      end--;
    }
    String body = bare.substring(0, end);
    String punct = bare.substring(end);
    boolean latin = AnswerLanguage.of(body) == AnswerLanguage.EN;
    if (!sb.isEmpty() && latin && !Character.isWhitespace(sb.charAt(sb.length() - 1))) {
      sb.append(' ');
    }
    sb.append(body).append(CitationMarkers.of(n));
    // A table row ends with its cell border; it needs no full stop.
    sb.append(punct.isEmpty() ? (body.endsWith("|") ? " " : latin ? "." : "。") : punct);
  }

  /**
   * The candidates rescored as {@code overlap share + cosine}; a candidate without overlap and
   * below {@link #MIN_SENTENCE_COSINE} scores 0 (not quoted). Unchanged when embedding fails.
   */
  private List<Candidate> byMeaning(String question, int questionFeatures, List<Candidate> all) {
    List<String> texts = new ArrayList<>();
    texts.add(BoundedInput.of(question, embedder));
    for (Candidate c : all) {
      texts.add(BoundedInput.of(c.meaningText(), embedder));
    }
    List<float[]> v;
    try {
      v = vectors(texts);
    } catch (RuntimeException e) {
      return all; // the lexical choice stands
    }
    List<Candidate> out = new ArrayList<>(all.size());
    for (int i = 0; i < all.size(); i++) {
      Candidate c = all.get(i);
      double cos = Vectors.cosine(v.get(0), v.get(i + 1));
      double share = questionFeatures == 0 ? 0
          : (c.overlap() + CONTEXT_WEIGHT * c.context()) / questionFeatures;
      boolean relevant = c.relevant() || cos >= MIN_SENTENCE_COSINE;
      boolean scored = c.overlap() > 0 || cos >= MIN_SENTENCE_COSINE;
      out.add(new Candidate(c.source(), c.rank(), c.position(), c.units(), c.overlap(),
          c.context(), relevant, scored ? share + cos : 0));
    }
    return out;
  }

  /** Vectors of {@code texts}, embedding only those not cached (passages recur across questions). */
  private List<float[]> vectors(List<String> texts) {
    if (sentenceVectors.size() > 20_000) {
      sentenceVectors.clear();
    }
    List<String> todo = texts.stream().distinct().filter(t -> !sentenceVectors.containsKey(t))
        .toList();
    if (!todo.isEmpty()) {
      List<float[]> v = embedder.embedAll(todo);
      for (int i = 0; i < todo.size(); i++) {
        sentenceVectors.put(todo.get(i), v.get(i));
      }
    }
    return texts.stream().map(sentenceVectors::get).toList();
  }

  /**
   * One unit of a source as a candidate: {@code units} are all units of the source,
   * {@code position} this one's index among them.
   */
  private record Candidate(Source source, int rank, int position, List<PassageUnits.Unit> units,
      int overlap, double context, boolean relevant, double score) {
    PassageUnits.Unit unit() {
      return units.get(position);
    }

    /** What is embedded for it: the unit with its prefix (table header, list lead-in). */
    String meaningText() {
      return unit().prefix().isEmpty() ? unit().text() : unit().prefix() + " " + unit().text();
    }
  }
}
