/**
 * The distributed {@link org.openbook.index.ChunkStore}: a SolrCloud 9 collection reached through
 * SolrJ.
 *
 * <p>{@link org.openbook.solr.SolrStoreConfig} says where the cluster is (Solr URLs or ZooKeeper
 * hosts), which collection, its shards and replicas for creation, and optional basic-auth
 * credentials. {@link org.openbook.solr.SolrAdmin} uploads OpenBook's configset (schema with the
 * vector dimension filled in, solrconfig with {@code ExactStatsCache}) and creates or reloads the
 * collection over HTTP, so nobody edits Solr files. {@link org.openbook.solr.SolrChunkStore}
 * then ingests and searches: each document is one nested block (replaced atomically, never
 * half old and half new), every request is retried on transient failures and a search that
 * some shard cannot answer fails or, if allowed, is reported partial ({@link
 * org.openbook.solr.SolrFailurePolicy}). {@link org.openbook.solr.SolrAdmin#status} is the
 * operator's view ({@code openbook solr status}).
 *
 * <p>Parity with the embedded Lucene store is by construction and checked by tests: OpenBook's
 * analyzer output is sent pre-analysed (terms and position increments), queries use the shared
 * {@link org.openbook.analysis.QueryTerms}, BM25 has Lucene's defaults and global statistics
 * across shards, the vector field is cosine HNSW with Lucene's default graph parameters, and the
 * access filter is a pre-filter ({@code fq}) in both routes.
 */
package org.openbook.solr;
