package org.openbook.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.openbook.index.DocumentEntry;

/** Per-document facts read from an index: which documents it holds, and their content hashes. */
final class IndexStats {

  private IndexStats() {}

  /** The terms of {@code field} that occur in at least one live (not deleted) document. */
  static Set<String> liveTerms(IndexReader reader, String field) throws IOException {
    Set<String> out = new TreeSet<>();
    for (LeafReaderContext ctx : reader.leaves()) {
      Terms terms = ctx.reader().terms(field);
      if (terms == null) {
        continue;
      }
      Bits live = ctx.reader().getLiveDocs();
      TermsEnum te = terms.iterator();
      PostingsEnum postings = null;
      for (BytesRef t = te.next(); t != null; t = te.next()) {
        if (live == null) {
          out.add(t.utf8ToString());
          continue;
        }
        postings = te.postings(postings, PostingsEnum.NONE);
        for (int d = postings.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS;
            d = postings.nextDoc()) {
          if (live.get(d)) {
            out.add(t.utf8ToString());
            break;
          }
        }
      }
    }
    return out;
  }

  /**
   * Every document id with a live chunk, mapped to its {@code contentHash} chunk meta (all chunks
   * of a document carry the same; the empty string if none has one), sorted by id.
   */
  static Map<String, String> contentHashes(IndexReader reader) throws IOException {
    Map<String, String> hashes = new TreeMap<>();
    for (LeafReaderContext ctx : reader.leaves()) {
      LeafReader leaf = ctx.reader();
      Bits live = leaf.getLiveDocs();
      StoredFields stored = leaf.storedFields();
      for (int doc = 0; doc < leaf.maxDoc(); doc++) {
        if (live != null && !live.get(doc)) {
          continue;
        }
        Document d = stored.document(doc, ChunkFields.META_FIELDS);
        String hash = ChunkFields.meta(d).getOrDefault("contentHash", "");
        hashes.merge(d.get(ChunkFields.DOC_ID), hash, (had, now) -> had.isEmpty() ? now : had);
      }
    }
    return hashes;
  }

  /**
   * Every document with a live chunk: department and title from its chunks' metadata (every
   * chunk of a document carries the document's), live chunk count and content hash; sorted by
   * source. One pass over the stored metadata of the live chunks.
   */
  static List<DocumentEntry> documents(IndexReader reader) throws IOException {
    Map<String, String[]> facts = new TreeMap<>();
    Map<String, Integer> counts = new TreeMap<>();
    for (LeafReaderContext ctx : reader.leaves()) {
      LeafReader leaf = ctx.reader();
      Bits live = leaf.getLiveDocs();
      StoredFields stored = leaf.storedFields();
      for (int doc = 0; doc < leaf.maxDoc(); doc++) {
        if (live != null && !live.get(doc)) {
          continue;
        }
        Document d = stored.document(doc, ChunkFields.META_FIELDS);
        String docId = d.get(ChunkFields.DOC_ID);
        counts.merge(docId, 1, Integer::sum);
        Map<String, String> meta = ChunkFields.meta(d);
        String[] f = facts.computeIfAbsent(docId, k -> new String[] {"", "", ""});
        fill(f, 0, meta.getOrDefault("dept", ""));
        fill(f, 1, meta.getOrDefault("title", ""));
        fill(f, 2, meta.getOrDefault("contentHash", ""));
      }
    }
    List<DocumentEntry> out = new ArrayList<>(facts.size());
    for (Map.Entry<String, String[]> e : facts.entrySet()) {
      String[] f = e.getValue();
      out.add(new DocumentEntry(e.getKey(), f[0].isEmpty() ? "public" : f[0], f[1],
          counts.get(e.getKey()), f[2]));
    }
    return out;
  }

  private static void fill(String[] facts, int i, String value) {
    if (facts[i].isEmpty()) {
      facts[i] = value;
    }
  }
}
