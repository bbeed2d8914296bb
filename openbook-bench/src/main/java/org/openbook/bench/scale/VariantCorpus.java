package org.openbook.bench.scale;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Grows a list of real passages into a corpus of any size with realistic variations, fixed seed.
 *
 * <p>The pool is the first {@code poolSize} passages of a seeded shuffle of the sources; only
 * its passages, their prefixes and sentences need model vectors. Chunks 0…P−1 are the P pool
 * passages themselves with their model vectors. Every further chunk is a variant of a passage
 * <i>a</i> drawn uniformly from the pool:
 * <ul>
 *   <li>{@link ScaleChunk.Origin#SHUFFLE} (share {@value #SHUFFLE_SHARE}): a re-edited copy of
 *       <i>a</i>: its sentences in a random order with one of them left out (needs three
 *       sentences or more; leaving one out keeps the derived vector from being identical to
 *       another shuffle's, which a mere reordering would be);</li>
 *   <li>{@link ScaleChunk.Origin#RECOMBINE} (the rest): the first 1…n sentences of <i>a</i>
 *       followed by sentences of another pool passage <i>b</i> of the same family from a random
 *       sentence on, up to {@value #MAX_CHARS} characters (paragraph recombination: a new
 *       passage on a mix of two real topics, under <i>a</i>'s title).</li>
 * </ul>
 * A variant's vector is {@link UnitVectors#derive} of its prefix and sentences. Chunks are
 * grouped {@value #CHUNKS_PER_DOC} per document; each document gets a department drawn with
 * the weights of {@link #DEPARTMENTS}.
 */
public final class VariantCorpus {

  /** Chunks per document. */
  public static final int CHUNKS_PER_DOC = 10;
  /** Share of shuffled variants among the variants. */
  public static final double SHUFFLE_SHARE = 0.3;
  /** Character budget of a recombined chunk (the chunker's default {@code maxChars}). */
  public static final int MAX_CHARS = 400;
  /** Departments and their share of documents, in percent. */
  public static final Map<String, Integer> DEPARTMENTS =
      Map.of("public", 40, "hr", 30, "finance", 19, "legal", 10, "audit", 1);
  private static final List<String> DEPT_ORDER =
      List.of("public", "hr", "finance", "legal", "audit");

  private VariantCorpus() {}

  /**
   * The first {@code total} chunks of the corpus grown from {@code sources} with {@code seed}.
   * The same arguments always give the same corpus, and a smaller {@code total} gives a prefix.
   */
  public static List<ScaleChunk> grow(List<SourcePassage> sources, UnitVectors vectors,
      int total, long seed, int poolSize) {
    Random random = new Random(seed);
    Random depts = new Random(seed + 1);
    List<SourcePassage> pool = pool(sources, poolSize, seed);
    Map<String, List<SourcePassage>> byFamily = new HashMap<>();
    for (SourcePassage p : pool) {
      byFamily.computeIfAbsent(p.family(), f -> new ArrayList<>()).add(p);
    }
    List<ScaleChunk> out = new ArrayList<>(total);
    String dept = null;
    for (int n = 0; n < total; n++) {
      if (n % CHUNKS_PER_DOC == 0) {
        dept = department(depts);
      }
      String docId = "scale/d" + (n / CHUNKS_PER_DOC);
      if (n < pool.size()) {
        SourcePassage p = pool.get(n);
        out.add(new ScaleChunk(n, docId, dept, p.prefix(), p.raw(), vectors.of(p.embedText()),
            ScaleChunk.Origin.SOURCE));
        continue;
      }
      SourcePassage a = pool.get(random.nextInt(pool.size()));
      List<String> sentences;
      ScaleChunk.Origin origin;
      if (a.sentences().size() >= 3 && random.nextDouble() < SHUFFLE_SHARE) {
        sentences = new ArrayList<>(a.sentences());
        Collections.shuffle(sentences, random);
        sentences.remove(random.nextInt(sentences.size()));
        origin = ScaleChunk.Origin.SHUFFLE;
      } else {
        List<SourcePassage> family = byFamily.get(a.family());
        SourcePassage b = family.get(random.nextInt(family.size()));
        sentences = recombine(a, b, random);
        origin = ScaleChunk.Origin.RECOMBINE;
      }
      out.add(new ScaleChunk(n, docId, dept, a.prefix(), String.join("", sentences),
          vectors.derive(a.prefix(), sentences), origin));
    }
    return out;
  }

  /**
   * The variant pool: the first {@code poolSize} of {@code sources} shuffled with {@code seed}
   * (all of them when there are fewer).
   */
  public static List<SourcePassage> pool(List<SourcePassage> sources, int poolSize, long seed) {
    List<SourcePassage> shuffled = new ArrayList<>(sources);
    Collections.shuffle(shuffled, new Random(seed + 3));
    return List.copyOf(shuffled.subList(0, Math.min(poolSize, shuffled.size())));
  }

  /** Leading sentences of {@code a}, then sentences of {@code b}, within {@link #MAX_CHARS}. */
  static List<String> recombine(SourcePassage a, SourcePassage b, Random random) {
    List<String> out = new ArrayList<>();
    int chars = 0;
    int head = 1 + random.nextInt(a.sentences().size());
    for (String s : a.sentences().subList(0, head)) {
      if (!out.isEmpty() && chars + s.length() > MAX_CHARS) {
        break;
      }
      out.add(s);
      chars += s.length();
    }
    for (String s : b.sentences().subList(random.nextInt(b.sentences().size()),
        b.sentences().size())) {
      if (chars + s.length() > MAX_CHARS) {
        break;
      }
      out.add(s);
      chars += s.length();
    }
    return out;
  }

  private static String department(Random random) {
    int r = random.nextInt(100);
    for (String d : DEPT_ORDER) {
      r -= DEPARTMENTS.get(d);
      if (r < 0) {
        return d;
      }
    }
    return DEPT_ORDER.get(0);
  }
}
