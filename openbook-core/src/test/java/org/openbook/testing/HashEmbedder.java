package org.openbook.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.openbook.embed.Embedder;

/**
 * A fast deterministic stand-in for a real embedding model in unit tests: hashed character
 * unigrams and bigrams (lower-cased), L2-normalised. Texts sharing characters get a positive
 * cosine; a text embedded twice gets cosine 1.0. Counts one token per code point plus two.
 */
public final class HashEmbedder implements Embedder {
  private final int dimension;
  private final int maxTokens;
  private int calls;
  private int texts;

  public HashEmbedder() {
    this(256, 512);
  }

  public HashEmbedder(int dimension, int maxTokens) {
    this.dimension = dimension;
    this.maxTokens = maxTokens;
  }

  @Override
  public String modelId() {
    return "test-hash-" + dimension;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public int maxInputTokens() {
    return maxTokens;
  }

  @Override
  public int countTokens(String text) {
    return text.codePointCount(0, text.length()) + 2;
  }

  /** How many times {@link #embedAll} was called. */
  public synchronized int calls() {
    return calls;
  }

  /** How many texts were embedded in total. */
  public synchronized int textsEmbedded() {
    return texts;
  }

  @Override
  public synchronized List<float[]> embedAll(List<String> inputs) {
    calls++;
    texts += inputs.size();
    List<float[]> out = new ArrayList<>(inputs.size());
    for (String t : inputs) {
      out.add(vector(t));
    }
    return out;
  }

  private float[] vector(String text) {
    float[] v = new float[dimension];
    int[] cps = text.toLowerCase(Locale.ROOT).codePoints()
        .filter(c -> !Character.isWhitespace(c)).toArray();
    for (int i = 0; i < cps.length; i++) {
      add(v, Integer.toString(cps[i]));
      if (i + 1 < cps.length) {
        add(v, cps[i] + ":" + cps[i + 1]);
      }
    }
    double norm = 0;
    for (float f : v) {
      norm += f * f;
    }
    if (norm == 0) {
      v[0] = 1;
      return v;
    }
    float inv = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) {
      v[i] *= inv;
    }
    return v;
  }

  private void add(float[] v, String feature) {
    byte[] b = feature.getBytes(StandardCharsets.UTF_8);
    int h = 0x811c9dc5;
    for (byte x : b) {
      h = (h ^ (x & 0xff)) * 0x01000193;
    }
    v[Math.floorMod(h, dimension)] += 1;
  }
}
