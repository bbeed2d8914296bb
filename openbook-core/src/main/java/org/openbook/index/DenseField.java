package org.openbook.index;

import java.util.Objects;

/**
 * A dense vector field besides the primary one: its own embedding model and dimension, searched
 * with query vectors from that model only (cosines of two models are never compared).
 *
 * @param name      field name in the OpenBook index, letters, digits and {@code _} only, e.g.
 *                  {@code en}; each store maps it to a field of its own ({@code vector_en})
 * @param model     embedding model id, e.g. {@code bge-small-en-v1.5-q}
 * @param dimension vector length, ≥ 1
 * @param provider  where the vectors come from ({@link org.openbook.embed.Embedder#provider()});
 *                  null (a manifest written before this component existed) reads as {@code onnx}
 */
public record DenseField(String name, String model, int dimension, String provider) {

  public DenseField {
    provider = provider == null || provider.isBlank() ? org.openbook.embed.Embedder.ONNX
        : provider;
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(model, "model");
    if (!name.matches("[A-Za-z0-9_]+")) {
      throw new IllegalArgumentException("dense field name '" + name
          + "' must be letters, digits and '_'");
    }
    if (dimension < 1) {
      throw new IllegalArgumentException("dense field '" + name + "': dimension " + dimension
          + " < 1");
    }
  }

  /** A field of an in-process ONNX model. */
  public DenseField(String name, String model, int dimension) {
    this(name, model, dimension, null);
  }

  /**
   * {@code name=model/dimension}, the model prefixed by {@code provider:} when not ONNX, as the
   * manifest check prints it.
   */
  String describe() {
    return name + "=" + (org.openbook.embed.Embedder.ONNX.equals(provider) ? ""
        : provider + ":") + model + "/" + dimension;
  }
}
