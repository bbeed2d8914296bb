package org.openbook.embed;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * How a LangChain4j in-process ONNX encoder uses the CPU: {@code parallel} texts of a batch run at
 * once (LangChain4j runs one {@code OrtSession.run} per text on its executor), each with {@code
 * intraOp} ONNX Runtime threads.
 *
 * <p>LangChain4j's own models use one executor thread per core AND an ONNX Runtime session with
 * its default intra-op pool (one thread per core), so on 2 cores two concurrent runs compete for
 * four busy threads. {@link #forCores(int)} gives one single-threaded run per core instead: no
 * oversubscription, and no padding waste since each text runs at its own length. The measured
 * effect is in docs/PERFORMANCE.md ("Ingest throughput").
 *
 * @param parallel texts embedded at once, ≥ 1
 * @param intraOp  ONNX Runtime intra-op threads per run, ≥ 1
 */
public record OnnxThreads(int parallel, int intraOp) {

  public OnnxThreads {
    if (parallel < 1 || intraOp < 1) {
      throw new IllegalArgumentException(
          "parallel and intraOp must be >= 1, got " + parallel + ", " + intraOp);
    }
  }

  /** One single-threaded run per core. */
  public static OnnxThreads forCores(int cores) {
    return new OnnxThreads(Math.max(1, cores), 1);
  }

  /** {@link #forCores} with the cores this JVM may use. */
  public static OnnxThreads defaults() {
    return forCores(Runtime.getRuntime().availableProcessors());
  }

  /**
   * Loads a LangChain4j-packaged BERT encoder from the class path with these threads.
   *
   * @param anchor            a class of the model's jar (its resources are looked up beside it)
   * @param modelResource     absolute resource name of the {@code .onnx} file
   * @param tokenizerResource absolute resource name of its {@code tokenizer.json}
   * @param pooling           the model's pooling (CLS for the BGE family)
   * @throws IllegalStateException if a resource is missing or ONNX Runtime rejects the model
   */
  AbstractInProcessEmbeddingModel load(Class<?> anchor, String modelResource,
      String tokenizerResource, PoolingMode pooling) {
    try (InputStream model = anchor.getResourceAsStream(modelResource);
         InputStream tokenizer = anchor.getResourceAsStream(tokenizerResource)) {
      if (model == null || tokenizer == null) {
        throw new IllegalStateException("model " + modelResource + " or tokenizer "
            + tokenizerResource + " not on the class path");
      }
      OrtEnvironment env = OrtEnvironment.getEnvironment();
      OrtSession.SessionOptions options = new OrtSession.SessionOptions();
      options.setIntraOpNumThreads(intraOp);
      options.setInterOpNumThreads(1);
      options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
      OrtSession session = env.createSession(model.readAllBytes(), options);
      OnnxBertBiEncoder encoder = new OnnxBertBiEncoder(env, session, tokenizer, pooling);
      return new Encoder(encoder, executor());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + modelResource, e);
    } catch (OrtException e) {
      throw new IllegalStateException("ONNX Runtime cannot load " + modelResource, e);
    }
  }

  private ExecutorService executor() {
    return Executors.newFixedThreadPool(parallel, r -> {
      Thread t = new Thread(r, "openbook-embed");
      t.setDaemon(true);
      return t;
    });
  }

  /** LangChain4j's in-process model around an encoder we built. */
  private static final class Encoder extends AbstractInProcessEmbeddingModel {
    private final OnnxBertBiEncoder encoder;

    Encoder(OnnxBertBiEncoder encoder, ExecutorService executor) {
      super(executor);
      this.encoder = encoder;
    }

    @Override
    protected OnnxBertBiEncoder model() {
      return encoder;
    }
  }
}
