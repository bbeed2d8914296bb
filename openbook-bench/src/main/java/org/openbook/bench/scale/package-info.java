/**
 * The scale benchmark (docs/PERFORMANCE.md): a realistic corpus grown from real passages to
 * 200k+ chunks, retrieval latency, HNSW recall and memory at several corpus sizes, and charts.
 */
package org.openbook.bench.scale;
