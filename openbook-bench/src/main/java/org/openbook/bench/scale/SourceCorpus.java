package org.openbook.bench.scale;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.openbook.bench.SquadCorpus;
import org.openbook.chunk.Chunk;
import org.openbook.chunk.Chunker;
import org.openbook.chunk.SentenceSplitter;
import org.openbook.chunk.Span;
import org.openbook.document.LoadException;
import org.openbook.document.MarkdownLoader;
import org.openbook.eval.SquadDataset;

/**
 * Reads the real passages the scale corpus is grown from: every context of the SQuAD-format sets
 * (one document per paragraph, as {@link SquadCorpus}) and every Markdown file of the docs
 * folders, through the app's chunker, each chunk split into sentences.
 */
public final class SourceCorpus {

  /** Sentences shorter than this (characters) are merged into the previous one. */
  static final int MIN_SENTENCE_CHARS = 8;

  private SourceCorpus() {}

  /** The chunks of every paragraph of {@code data}, as passages of family {@code family}. */
  public static List<SourcePassage> fromSquad(String family, SquadDataset data, Chunker chunker) {
    List<SourcePassage> out = new ArrayList<>();
    for (List<Chunk> chunks : SquadCorpus.chunk(data, chunker)) {
      chunks.forEach(c -> out.add(passage(family, c)));
    }
    return out;
  }

  /**
   * The chunks of every Markdown file under {@code folder}, in path order, as passages of
   * family {@code family}. A file that does not load is skipped with a message on stderr.
   *
   * @throws IOException if the folder cannot be listed
   */
  public static List<SourcePassage> fromMarkdown(String family, Path folder, Chunker chunker)
      throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.walk(folder)) {
      files = s.filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p)).sorted()
          .toList();
    }
    MarkdownLoader loader = new MarkdownLoader();
    List<SourcePassage> out = new ArrayList<>();
    for (Path f : files) {
      try {
        String source = folder.relativize(f).toString();
        for (Chunk c : chunker.chunk(loader.load(f, source).document())) {
          out.add(passage(family, c));
        }
      } catch (LoadException | IOException | RuntimeException e) {
        System.err.println("skipped " + f + ": " + e.getMessage());
      }
    }
    return out;
  }

  /** One chunk as a passage: its prefix and its raw text split into sentences. */
  static SourcePassage passage(String family, Chunk c) {
    String raw = c.raw();
    String embed = c.embedText();
    String prefix = embed.endsWith(raw) && embed.length() > raw.length()
        ? embed.substring(0, embed.length() - raw.length()).strip() : "";
    return new SourcePassage(family, prefix, sentences(raw), embed);
  }

  /** {@code text} split by {@link SentenceSplitter}, sentences under 8 chars merged backwards. */
  static List<String> sentences(String text) {
    List<String> out = new ArrayList<>();
    for (Span s : SentenceSplitter.split(text)) {
      String t = s.of(text);
      if (!out.isEmpty() && (t.strip().length() < MIN_SENTENCE_CHARS
          || out.get(out.size() - 1).strip().length() < MIN_SENTENCE_CHARS)) {
        out.set(out.size() - 1, out.get(out.size() - 1) + t);
      } else {
        out.add(t);
      }
    }
    if (out.isEmpty()) {
      out.add(text);
    }
    return out;
  }
}
