/**
 * Answering: from retrieved hits to a checked, cited {@link org.openbook.answer.Answer}.
 *
 * <p>{@link org.openbook.answer.AnswerService} runs the pipeline. It retrieves once and applies
 * gate 1 (the best dense cosine must reach a calibrated threshold, else
 * {@code REFUSED_NO_EVIDENCE} without calling the generator). The hits become numbered
 * {@link org.openbook.answer.Source}s [1]..[k]; that same list goes to the
 * {@link org.openbook.answer.Generator} and back to the user. A generator is either an LLM (the
 * app's {@code OpenAiGenerator}, prompted by {@link org.openbook.answer.PromptBuilder}) or the
 * offline {@link org.openbook.answer.ExtractiveGenerator}. Gate 2 is the fixed refusal sentence
 * of {@link org.openbook.answer.RefusalPolicy}: a reply that is that sentence ends as
 * {@code REFUSED_BY_MODEL}.
 *
 * <p>The final text is then checked: {@link org.openbook.answer.CitationChecker} parses the
 * markers ({@code [1]}, {@code [1,5]}, {@code 【2】}, full-width digits), drops numbers outside
 * 1..k from the text and the citation list, and lists sentences that cite nothing;
 * {@link org.openbook.answer.SupportChecker} flags citations whose passage does not lexically
 * support the claim (a number missing from the passage, or bound to another unit, always fails).
 * {@link org.openbook.answer.ReplyChecker} runs gate 2 and both checks on any finished reply; the
 * agentic mode uses it on answers written from several searches.
 */
package org.openbook.answer;
