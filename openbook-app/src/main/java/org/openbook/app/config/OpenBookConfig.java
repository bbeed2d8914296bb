package org.openbook.app.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.openbook.chunk.ChunkerSettings;
import org.openbook.retrieve.Principal;

/**
 * Settings read from {@code openbook.yaml}; every field is optional and falls back to the
 * documented default. See the README's configuration reference.
 *
 * @param principals principal name → departments it may read ({@code public} is always added)
 * @param chunking   chunk budget
 * @param retrieval  top-k, fetch-k and fusion settings
 * @param gate       refusal gate settings
 * @param ingest     ingest limits
 * @param llm        OpenAI-compatible endpoint; environment variables override it
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record OpenBookConfig(
    @JsonProperty("principals") Map<String, List<String>> principals,
    @JsonProperty("chunking") Chunking chunking,
    @JsonProperty("retrieval") Retrieval retrieval,
    @JsonProperty("gate") Gate gate,
    @JsonProperty("ingest") Ingest ingest,
    @JsonProperty("llm") Llm llm) {

  public OpenBookConfig {
    principals = principals == null ? Map.of() : new LinkedHashMap<>(principals);
    chunking = chunking == null ? new Chunking(null, null, null) : chunking;
    retrieval = retrieval == null ? new Retrieval(null, null, null, null, null) : retrieval;
    gate = gate == null ? new Gate(null) : gate;
    ingest = ingest == null ? new Ingest(null) : ingest;
    llm = llm == null ? new Llm(null, null, null, null) : llm;
  }

  /** All defaults, no principals but the anonymous one. */
  public static OpenBookConfig defaults() {
    return new OpenBookConfig(null, null, null, null, null, null);
  }

  /**
   * The principal called {@code name}; {@code null} or blank gives {@link Principal#ANONYMOUS}
   * ({@code public} only).
   *
   * @throws IllegalArgumentException naming the known principals when {@code name} is unknown
   */
  public Principal principal(String name) {
    if (name == null || name.isBlank()) {
      return Principal.ANONYMOUS;
    }
    List<String> depts = principals.get(name);
    if (depts == null) {
      throw new IllegalArgumentException("unknown principal '" + name + "'; known: "
          + (principals.isEmpty() ? "(none configured)" : String.join(", ", principals.keySet())));
    }
    return new Principal(name, Set.copyOf(depts));
  }

  /** Chunk budget in chars; defaults from {@link ChunkerSettings#DEFAULT}. */
  public record Chunking(Integer maxChars, Integer overlapChars, Integer maxPrefixChars) {
    public ChunkerSettings settings() {
      ChunkerSettings d = ChunkerSettings.DEFAULT;
      return new ChunkerSettings(
          maxChars == null ? d.maxChars() : maxChars,
          overlapChars == null ? d.overlapChars() : overlapChars,
          maxPrefixChars == null ? d.maxPrefixChars() : maxPrefixChars);
    }
  }

  /**
   * Retrieval settings.
   *
   * @param topK         hits returned / sources given to the generator (default 5)
   * @param fetchK       candidates per route before fusion (default 50)
   * @param rrfK         RRF constant (default 60, Cormack et al. 2009)
   * @param denseWeight  RRF weight of the dense route (default 1.0)
   * @param sparseWeight RRF weight of the BM25 route (default 1.0)
   */
  public record Retrieval(
      Integer topK, Integer fetchK, Double rrfK, Double denseWeight, Double sparseWeight) {
    public int topKOr(int dflt) {
      return topK == null ? dflt : topK;
    }

    public int fetchKOr(int dflt) {
      return fetchK == null ? dflt : fetchK;
    }
  }

  /** Gate 1: refuse without calling the generator when the best dense cosine is below this. */
  public record Gate(Double threshold) {}

  /** Ingest limits: files larger than {@code maxFileBytes} are skipped and reported. */
  public record Ingest(Long maxFileBytes) {}

  /**
   * OpenAI-compatible endpoint. The key is best given by environment variable.
   *
   * @param baseUrl        e.g. {@code https://api.deepseek.com/v1}
   * @param model          model name
   * @param apiKey         API key (prefer the environment variable)
   * @param timeoutSeconds request timeout
   */
  public record Llm(String baseUrl, String model, String apiKey, Integer timeoutSeconds) {}
}
