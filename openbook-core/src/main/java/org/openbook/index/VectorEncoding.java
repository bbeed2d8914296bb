package org.openbook.index;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How the embedded index stores the vectors its HNSW graph searches: full 32-bit floats, or
 * scalar-quantized to 8 or 4 bits per dimension (Lucene's {@code
 * Lucene99HnswScalarQuantizedVectorsFormat}: each dimension is mapped linearly onto 2^bits levels
 * between quantiles of the segment's values). Quantized vectors take a quarter (int8) or an eighth
 * (int4) of the memory the graph search reads; scores become approximate. Recorded in the index
 * manifest: an index is searched with the encoding it was built with. The cost in Recall@1/MRR
 * on CMRC and kb-demo is in docs/PERFORMANCE.md.
 */
public enum VectorEncoding {
  /** 32-bit floats (the default): exact dot products. */
  FLOAT32("float32", 32),
  /** 7-bit scalar quantization stored in one byte per dimension (Lucene's "int8"). */
  INT8("int8", 7),
  /** 4-bit scalar quantization, two dimensions per byte. */
  INT4("int4", 4);

  private final String id;
  private final int bits;

  VectorEncoding(String id, int bits) {
    this.id = id;
    this.bits = bits;
  }

  /** The id used in configuration and manifests: {@code float32}, {@code int8}, {@code int4}. */
  public String id() {
    return id;
  }

  /** Bits per dimension of the quantized form (32 for floats). */
  public int bits() {
    return bits;
  }

  /**
   * The encoding called {@code id} (case-insensitive); {@code null} is {@link #FLOAT32}.
   *
   * @param field names the setting in the error message, e.g. {@code store.lucene.vectorEncoding}
   * @throws IllegalArgumentException naming {@code field} and the allowed ids
   */
  public static VectorEncoding parse(String id, String field) {
    if (id == null) {
      return FLOAT32;
    }
    String want = id.trim().toLowerCase(Locale.ROOT);
    for (VectorEncoding e : values()) {
      if (e.id.equals(want)) {
        return e;
      }
    }
    throw new IllegalArgumentException(field + " must be one of "
        + Arrays.stream(values()).map(VectorEncoding::id).collect(Collectors.joining(", "))
        + ", got '" + id + "'");
  }
}
