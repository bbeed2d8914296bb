/**
 * BM25 text analysis: one {@link org.openbook.analysis.TextAnalysis} used at index and at query
 * time. {@link org.openbook.analysis.OpenBookAnalysis} keeps identifiers ({@code ERR_4517},
 * {@code GB/T 22239}, {@code 8.1.4}) whole, stems English, and tokenises Chinese by CJK bigrams,
 * unigrams plus bigrams, or SmartChinese words.
 */
package org.openbook.analysis;
