package org.openbook.answer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.openbook.chunk.SentenceSplitter;
import org.openbook.chunk.Span;
import org.openbook.embed.BoundedInput;
import org.openbook.embed.Embedder;
import org.openbook.embed.Vectors;

/**
 * Answers without an LLM by quoting the passages' best sentences, each cited.
 *
 * <p>Every sentence of every source is scored by the number of distinct question features
 * (Han bigrams and lower-cased words, English stop words skipped; no IDF) it contains. The best
 * {@code maxSentences} with a positive score are kept, at most {@code maxPerSource} per source
 * (ties go to the better-ranked source, then the earlier sentence), and printed in source rank
 * order, then document order, each followed by its {@code [n]}. When no sentence overlaps the
 * question the reply is the refusal sentence: passing gate 1 only says a passage is near the
 * question, and quoting a sentence that shares no word with it would pass an unrelated passage
 * off as the answer (this is the extractive counterpart of the LLM's refusal). The text starts with a label saying it
 * is an extract ({@code （摘录）} for Chinese questions, {@code (Extract) } for English ones).
 * Deterministic; the whole text is passed to {@code onText} once.
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
 * term that no chunk of the index contains ({@link TermCoverage#undocumented}), gives the refusal
 * sentence followed by {@code 文档中没有关于 X 的说明。} ({@code The documents say nothing about
 * X.}); a partly covered question gets its extract followed by the same sentence for the terms
 * not covered; a term covered by a synonym or by meaning is named with the document term taken
 * for it ({@code （“过滤网”按文档中的“滤芯”理解。）}).
 */
public final class ExtractiveGenerator implements Generator {

  /** Default label for Chinese questions. */
  public static final String LABEL_ZH = "（摘录）";
  /** Default label for English questions. */
  public static final String LABEL_EN = "(Extract) ";

  /** Markdown line prefixes that are layout, not content: headings, bullets, quotes. */
  private static final Pattern MARKDOWN_PREFIX =
      Pattern.compile("^(?:#{1,6}\\s+|[-*+]\\s+|>\\s*|\\d{1,3}[.)]\\s+)+");

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

  @Override
  public String generate(String question, List<Source> sources, Consumer<String> onText) {
    AnswerLanguage lang = AnswerLanguage.of(question);
    List<Candidate> picked = pick(question, sources);
    String text;
    if (picked.isEmpty()) {
      text = refusal.sentenceFor(lang);
      if (coverage != null) {
        // Say which code the documents lack, when that is why nothing matched.
        List<KeyTerm> lacking = coverage.check(question,
            sources.stream().map(ExtractiveGenerator::indexed).toList()).missingIdentifiers();
        if (!lacking.isEmpty()) {
          text += (lang == AnswerLanguage.ZH ? "" : " ") + notDocumented(lacking, lang);
        }
      }
    } else {
      TermCoverage.Report covered = coverage == null ? null
          : coverage.check(question, picked.stream().map(c -> indexed(c.source())).distinct()
              .toList());
      // Refuse for a missing code, or when too little is covered and something missing is in
      // no document at all; terms the corpus has elsewhere are phrasing, not a missing subject.
      if (covered != null && (!covered.missingIdentifiers().isEmpty()
          || (covered.coveredShare() < MIN_COVERED_SHARE
              && covered.missing().stream().anyMatch(coverage::undocumented)))) {
        List<KeyTerm> lacking = covered.missingIdentifiers();
        if (lacking.isEmpty()) {
          lacking = covered.missing().stream().filter(coverage::undocumented).toList();
        }
        text = refusal.sentenceFor(lang) + (lang == AnswerLanguage.ZH ? "" : " ")
            + notDocumented(lacking, lang);
      } else {
        StringBuilder sb = new StringBuilder(lang == AnswerLanguage.ZH ? labelZh : labelEn);
        for (Candidate c : picked) {
          appendCited(sb, c.sentence(), c.source().n());
        }
        if (covered != null) {
          appendNotes(sb, covered, coverage, lang);
        }
        text = sb.toString().strip();
      }
    }
    onText.accept(text);
    return text;
  }

  /** {@code 文档中没有关于 X、Y 的说明。} or {@code The documents say nothing about X, Y.} */
  static String notDocumented(List<KeyTerm> terms, AnswerLanguage lang) {
    List<String> names = terms.stream().map(KeyTerm::text).toList();
    return lang == AnswerLanguage.ZH
        ? "文档中没有关于 " + String.join("、", names) + " 的说明。"
        : "The documents say nothing about " + String.join(", ", names) + ".";
  }

  /** The mapping of terms taken to mean a document term, then the terms not covered. */
  private static void appendNotes(StringBuilder sb, TermCoverage.Report covered,
      TermCoverage coverage, AnswerLanguage lang) {
    for (TermCoverage.Match m : covered.mapped()) {
      sb.append(lang == AnswerLanguage.ZH
          ? "（“" + m.term().text() + "”按文档中的“" + m.documentTerm() + "”理解。）"
          : " (\"" + m.term().text() + "\" taken to mean \"" + m.documentTerm()
              + "\", as the documents say.)");
    }
    // Named only when no document has the term: a word the corpus uses elsewhere (屋里, 以后)
    // is not something "the documents say nothing about".
    List<KeyTerm> absent = covered.missing().stream().filter(coverage::undocumented).toList();
    if (!absent.isEmpty()) {
      sb.append(lang == AnswerLanguage.ZH ? "" : " ").append(notDocumented(absent, lang));
    }
  }

  /** The passage as indexed (title and heading path with the text): what coverage reads. */
  private static String indexed(Source s) {
    return s.hit() == null ? s.text() : s.hit().chunk().embedText();
  }

  /**
   * With gate 2 on: when some source contains one of the question's identifiers, only such
   * sources are quoted, so the cited passages hold the code the question asks about.
   */
  private List<Source> quotable(String question, List<Source> sources) {
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

  private List<Candidate> pick(String question, List<Source> given) {
    List<Source> sources = quotable(question, given);
    Set<String> q = LexicalFeatures.of(question);
    List<Candidate> all = new ArrayList<>();
    for (int rank = 0; rank < sources.size(); rank++) {
      Source s = sources.get(rank);
      List<String> sentences = sentences(s.text());
      for (int pos = 0; pos < sentences.size(); pos++) {
        String sentence = sentences.get(pos);
        int overlap = (int) LexicalFeatures.of(sentence).stream().filter(q::contains).count();
        all.add(new Candidate(s, rank, pos, sentence, overlap, overlap));
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
    Map<Integer, Integer> perSource = new HashMap<>();
    for (Candidate c : best) {
      if (picked.size() == maxSentences) {
        break;
      }
      if (perSource.merge(c.rank(), 1, Integer::sum) <= maxPerSource) {
        picked.add(c);
      }
    }
    // No sentence shares a word with the question: quoting one anyway would present an
    // unrelated passage as the answer, so the caller refuses instead (extractive gate 2).
    picked.sort(Comparator.comparingInt(Candidate::rank).thenComparingInt(Candidate::position));
    return picked;
  }

  /**
   * Content sentences of a passage, split the way chunks are ({@link SentenceSplitter}: a wrapped
   * line is not a sentence end), then at line starts that open a new block (list item, table
   * row, quote, {@code Q：}/{@code A：}); markdown prefixes removed, fragments dropped.
   */
  private static List<String> sentences(String passage) {
    List<String> out = new ArrayList<>();
    // Code blocks are evidence to show in the source, not sentences to quote as an answer.
    passage = FENCED_CODE.matcher(passage).replaceAll("\n\n");
    // A heading labels the passage; it is not a sentence, and must not run into the next line.
    passage = HEADING_LINE.matcher(passage).replaceAll("\n");
    for (Span span : SentenceSplitter.split(passage)) {
      for (String line : BLOCK_START.split(span.of(passage))) {
        String t = MARKDOWN_PREFIX.matcher(line.strip()).replaceFirst("").strip();
        t = WRAPPED_LINE.matcher(t).replaceAll(" ");
        if (Sentences.contentLength(t) >= CitationChecker.MIN_CLAIM_LENGTH) {
          out.add(t);
        }
      }
    }
    return out;
  }

  /** A fenced code block (``` or ~~~), possibly unclosed at the end of the passage. */
  private static final Pattern FENCED_CODE =
      Pattern.compile("(?ms)^\\s{0,3}(```|~~~).*?(?:^\\s{0,3}\\1[^\\n]*$|\\z)");
  /** An ATX heading line ({@code # …} to {@code ###### …}). */
  private static final Pattern HEADING_LINE = Pattern.compile("(?m)^\\s{0,3}#{1,6}(?:\\s.*)?$");
  /** A line break before a line that starts a new block. */
  private static final Pattern BLOCK_START =
      Pattern.compile("\\R(?=\\s*(?:[-*+>|#]|\\d+[.)]\\s|[QA问答][：:]))");
  /** A remaining line break inside a wrapped paragraph, with its indentation. */
  private static final Pattern WRAPPED_LINE = Pattern.compile("\\s*\\R\\s*");

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
    sb.append(punct.isEmpty() ? (latin ? "." : "。") : punct);
  }

  /**
   * The candidates rescored as {@code overlap share + cosine}; a candidate without overlap and
   * below {@link #MIN_SENTENCE_COSINE} scores 0 (not quoted). Unchanged when embedding fails.
   */
  private List<Candidate> byMeaning(String question, int questionFeatures, List<Candidate> all) {
    List<String> texts = new ArrayList<>();
    texts.add(BoundedInput.of(question, embedder));
    for (Candidate c : all) {
      texts.add(BoundedInput.of(c.sentence(), embedder));
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
      double share = questionFeatures == 0 ? 0 : (double) c.overlap() / questionFeatures;
      double score = c.overlap() > 0 || cos >= MIN_SENTENCE_COSINE ? share + cos : 0;
      out.add(new Candidate(c.source(), c.rank(), c.position(), c.sentence(), c.overlap(),
          score));
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

  private record Candidate(Source source, int rank, int position, String sentence, int overlap,
      double score) {}
}
