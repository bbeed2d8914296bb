package org.openbook.bench.scale;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openbook.embed.BoundedInput;
import org.openbook.embed.Embedder;
import org.openbook.embed.ForwardingEmbedder;

/**
 * An {@link Embedder} that answers from vectors computed beforehand by the real model, so the
 * retrieval timings exclude the query embedding (which is timed on its own). Same model id,
 * dimension and token counts as the model it stands for.
 */
public final class QueryVectors extends ForwardingEmbedder {
  private final Map<String, float[]> vectors = new HashMap<>();

  /** Embeds the bounded form of every question with {@code model} (cached or not). */
  public QueryVectors(Embedder model, List<String> questions) {
    super(model);
    List<String> bounded = questions.stream().map(q -> BoundedInput.of(q, model)).toList();
    List<float[]> v = model.embedAll(bounded);
    for (int i = 0; i < bounded.size(); i++) {
      vectors.put(bounded.get(i), v.get(i));
    }
  }

  /** The vector of {@code question} as the retriever embeds it. */
  public float[] of(String question) {
    return embed(BoundedInput.of(question, model));
  }

  @Override
  public List<float[]> embedAll(List<String> texts) {
    return texts.stream().map(t -> {
      float[] v = vectors.get(t);
      if (v == null) {
        throw new IllegalArgumentException("no precomputed vector for query: " + t);
      }
      return v;
    }).toList();
  }
}
