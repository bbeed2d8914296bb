package org.openbook.rerank;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a tiny ONNX graph with a BERT cross-encoder's interface (inputs {@code input_ids},
 * {@code attention_mask}, {@code token_type_ids}, int64 [batch, seq]; output {@code logits},
 * float [batch, 1]) whose "logit" is the number of real tokens of the second segment
 * ({@code sum(attention_mask * token_type_ids)}): the passage's tokens plus the final [SEP]. No
 * cross-encoder model can be downloaded here, so this stands in for one with a score that a
 * test can predict; it is encoded by hand as ONNX protobuf (onnx.proto3, opset 11).
 */
final class TinyCrossEncoder {

  private TinyCrossEncoder() {}

  private static final int FLOAT = 1;
  private static final int INT64 = 7;

  /** Writes the model to {@code file}. */
  static Path write(Path file) throws IOException {
    byte[] graph = concat(
        field(1, node("Mul", new String[] {"attention_mask", "token_type_ids"}, "second",
            new byte[0])),
        field(1, node("Cast", new String[] {"second"}, "second_f",
            field(5, concat(string(1, "to"), varint(3, FLOAT), varint(20, 2))))),
        field(1, node("ReduceSum", new String[] {"second_f"}, "logits", concat(
            field(5, concat(string(1, "axes"), varint(8, 1), varint(20, 7))),
            field(5, concat(string(1, "keepdims"), varint(3, 1), varint(20, 2)))))),
        string(2, "tiny_cross_encoder"),
        field(11, valueInfo("input_ids", INT64, "batch", "seq")),
        field(11, valueInfo("attention_mask", INT64, "batch", "seq")),
        field(11, valueInfo("token_type_ids", INT64, "batch", "seq")),
        field(12, valueInfo("logits", FLOAT, "batch", null)));
    byte[] model = concat(
        varint(1, 7),                              // ir_version
        string(2, "openbook-test"),                // producer_name
        field(7, graph),                           // graph
        field(8, varint(2, 11)));                  // opset_import { version: 11 }
    Files.write(file, model);
    return file;
  }

  private static byte[] node(String op, String[] inputs, String output, byte[] attributes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String in : inputs) {
      out.writeBytes(string(1, in));
    }
    out.writeBytes(string(2, output));
    out.writeBytes(string(3, op.toLowerCase() + "_node"));
    out.writeBytes(string(4, op));
    out.writeBytes(attributes);
    return out.toByteArray();
  }

  /** A tensor ValueInfoProto; {@code dim2} null means the fixed size 1. */
  private static byte[] valueInfo(String name, int elemType, String dim1, String dim2) {
    byte[] shape = concat(field(1, string(2, dim1)),
        dim2 == null ? field(1, varint(1, 1)) : field(1, string(2, dim2)));
    byte[] tensor = concat(varint(1, elemType), field(2, shape));
    return concat(string(1, name), field(2, field(1, tensor)));
  }

  private static byte[] varint(int field, long value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    writeVarint(out, (long) field << 3);
    writeVarint(out, value);
    return out.toByteArray();
  }

  private static byte[] string(int field, String value) {
    return field(field, value.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] field(int field, byte[] bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    writeVarint(out, ((long) field << 3) | 2);
    writeVarint(out, bytes.length);
    out.writeBytes(bytes);
    return out.toByteArray();
  }

  private static void writeVarint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
