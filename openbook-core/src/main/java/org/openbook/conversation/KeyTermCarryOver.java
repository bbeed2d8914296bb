package org.openbook.conversation;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

/**
 * The offline rewriter: when a question looks like a follow-up, the previous question's key terms
 * that it lacks are put in front of it. {@code 跨境订单的质量问题退货要在签收后几天内申请？} then
 * {@code 那退款多久发起？} becomes {@code 跨境订单 质量问题退货 签收后 申请 那退款多久发起？}.
 *
 * <p>A question counts as a follow-up when it starts with a continuation word ({@code 那},
 * {@code 还有}, {@code and}, {@code what about} …), contains a pronoun ({@code 它}, {@code 这个},
 * {@code it}, {@code they} …) or is short (fewer than {@value #SHORT_QUESTION} letters and
 * digits); otherwise it stands alone and is kept as asked, so a new topic in the same conversation
 * is not polluted. These cues are a provisional heuristic, not measured yet.
 *
 * <p>Key terms of the previous standalone question: runs of non-Han letters and digits (an
 * identifier such as {@code ZQ-7781} stays whole; English stop words and question words are
 * dropped) and Han runs cut at function and question words ({@code 的}, {@code 多久},
 * {@code 几天内} …), keeping pieces of two or more characters. A term is lacking when the
 * follow-up does not contain it (a Han term: not all its character bigrams occur in the
 * follow-up). Stateless and thread-safe.
 */
public final class KeyTermCarryOver implements QuestionRewriter {

  /** Letters and digits below which a question is too short to stand alone. */
  public static final int SHORT_QUESTION = 8;

  /** Han function and question words that end a key term, longest first where they overlap. */
  private static final List<String> HAN_BREAKS = List.of(
      "为什么", "是不是", "有没有", "几天内", "多长时间",
      "多少", "多久", "多长", "几天", "几个", "什么", "怎么", "怎样", "如何", "哪些", "哪个", "哪里",
      "是否", "可以", "能否", "需要", "应该", "请问", "要在", "那么", "还有", "另外", "的话", "时候",
      "的", "了", "吗", "呢", "吧", "啊", "呀", "几", "那", "和", "与", "及", "或");
  private static final List<String> HAN_CONTINUATIONS =
      List.of("那", "还有", "另外", "而", "如果", "要是", "同样", "也");
  private static final List<String> HAN_PRONOUNS =
      List.of("它", "这个", "那个", "这些", "那些", "这种", "该", "其", "此");
  private static final List<String> EN_CONTINUATIONS =
      List.of("and ", "what about", "how about", "also", "then ", "what if");
  private static final Set<String> EN_PRONOUNS =
      Set.of("it", "its", "they", "them", "their", "that", "this", "those", "these", "there");
  private static final CharArraySet EN_STOP = EnglishAnalyzer.ENGLISH_STOP_WORDS_SET;
  private static final Set<String> EN_QUESTION_WORDS = Set.of("what", "how", "when", "where",
      "which", "who", "why", "long", "many", "much", "do", "does", "did", "can", "could",
      "should", "would", "i", "we", "you", "my", "our", "need", "about", "days");
  private static final String JOINERS = "._-/:";

  @Override
  public String rewrite(String followUp, List<Turn> history) {
    if (history.isEmpty() || !isFollowUp(followUp)) {
      return followUp;
    }
    String previous = history.get(history.size() - 1).standaloneQuestion();
    String asked = normalise(followUp);
    List<String> carried = new ArrayList<>();
    for (String term : keyTerms(previous)) {
      if (!contains(asked, term)) {
        carried.add(term);
      }
    }
    return carried.isEmpty() ? followUp : String.join(" ", carried) + " " + followUp.strip();
  }

  /** Whether {@code question} needs the previous turn to be understood (see class comment). */
  public static boolean isFollowUp(String question) {
    String q = normalise(question).strip();
    if (contentLength(q) < SHORT_QUESTION) {
      return true;
    }
    for (String c : HAN_CONTINUATIONS) {
      if (q.startsWith(c)) {
        return true;
      }
    }
    for (String c : EN_CONTINUATIONS) {
      if (q.startsWith(c)) {
        return true;
      }
    }
    for (String p : HAN_PRONOUNS) {
      if (q.contains(p)) {
        return true;
      }
    }
    for (String w : q.split("[^\\p{L}\\p{N}]+")) {
      if (EN_PRONOUNS.contains(w)) {
        return true;
      }
    }
    return false;
  }

  /** The key terms of {@code question}, distinct, in order of appearance. */
  public static List<String> keyTerms(String question) {
    String t = normalise(question);
    Set<String> out = new LinkedHashSet<>();
    int i = 0;
    while (i < t.length()) {
      int cp = t.codePointAt(i);
      if (isHan(cp)) {
        int end = i;
        while (end < t.length() && isHan(t.codePointAt(end))) {
          end += Character.charCount(t.codePointAt(end));
        }
        splitHan(t.substring(i, end), out);
        i = end;
      } else if (Character.isLetterOrDigit(cp)) {
        int end = i;
        while (end < t.length()) {
          int c = t.codePointAt(end);
          if (Character.isLetterOrDigit(c) && !isHan(c)) {
            end += Character.charCount(c);
          } else if (JOINERS.indexOf(c) >= 0 && end + 1 < t.length()
              && Character.isLetterOrDigit(t.codePointAt(end + 1))
              && !isHan(t.codePointAt(end + 1))) {
            end++;
          } else {
            break;
          }
        }
        String word = t.substring(i, end);
        if (!EN_STOP.contains(word) && !EN_QUESTION_WORDS.contains(word)) {
          out.add(word);
        }
        i = end;
      } else {
        i += Character.charCount(cp);
      }
    }
    return List.copyOf(out);
  }

  /** Cuts a Han run at the break words, keeping pieces of ≥ 2 characters. */
  private static void splitHan(String run, Set<String> out) {
    StringBuilder piece = new StringBuilder();
    int i = 0;
    while (i < run.length()) {
      String brk = breakAt(run, i);
      if (brk != null) {
        flush(piece, out);
        i += brk.length();
      } else {
        piece.appendCodePoint(run.codePointAt(i));
        i += Character.charCount(run.codePointAt(i));
      }
    }
    flush(piece, out);
  }

  private static String breakAt(String run, int i) {
    for (String b : HAN_BREAKS) {
      if (run.startsWith(b, i)) {
        return b;
      }
    }
    return null;
  }

  private static void flush(StringBuilder piece, Set<String> out) {
    if (piece.codePointCount(0, piece.length()) >= 2) {
      out.add(piece.toString());
    }
    piece.setLength(0);
  }

  /** Whether the normalised question holds {@code term}: a Han term by all its bigrams. */
  private static boolean contains(String question, String term) {
    if (!isHan(term.codePointAt(0))) {
      return keyTerms(question).contains(term);
    }
    int[] cps = term.codePoints().toArray();
    for (int k = 0; k + 1 < cps.length; k++) {
      if (!question.contains(new String(cps, k, 2))) {
        return false;
      }
    }
    return true;
  }

  private static int contentLength(String s) {
    return (int) s.codePoints().filter(Character::isLetterOrDigit).count();
  }

  private static String normalise(String s) {
    return Normalizer.normalize(s, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
  }

  private static boolean isHan(int cp) {
    return Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN;
  }
}
