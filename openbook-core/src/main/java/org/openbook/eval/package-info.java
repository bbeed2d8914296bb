/**
 * Evaluation: labelled question sets, ranking and refusal metrics, and the report model.
 *
 * <p>A ranking is {@link org.openbook.eval.Judged judged} against a question's gold items (a
 * kb-demo {@link org.openbook.eval.EvalCase} gold is a source path plus a verbatim snippet; a
 * {@link org.openbook.eval.SquadDataset} question's gold is its own context).
 * {@link org.openbook.eval.RankingMetrics} gives Recall@k, reciprocal rank and nDCG@k with binary
 * gain per query; {@link org.openbook.eval.RankingScores} averages them;
 * {@link org.openbook.eval.RefusalCounts} holds refusal precision, recall and false-refusal
 * rate; {@link org.openbook.eval.Percentiles} gives latency percentiles.
 * {@link org.openbook.eval.ConfigResult} summarises one configuration and
 * {@link org.openbook.eval.EvalReport} renders several side by side as Markdown and JSON. The
 * runners live in the app ({@code openbook eval}, {@code openbook calibrate}) and in
 * {@code openbook-bench}.
 */
package org.openbook.eval;
