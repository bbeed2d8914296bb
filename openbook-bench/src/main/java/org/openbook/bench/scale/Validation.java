package org.openbook.bench.scale;

/**
 * How well derived vectors stand in for model vectors (docs/PERFORMANCE.md, "Validation").
 *
 * @param variants          variants embedded by the model for the comparison
 * @param meanCosine        mean cosine between a variant's model vector and its derived vector
 * @param p5Cosine          5th percentile of that cosine
 * @param minCosine         its minimum
 * @param sourceCosine      mean cosine, over the pool passages, between the model vector of
 *                          the whole passage and the vector derived from its own sentences
 * @param neighbourOverlap  mean share of the exact top-10 over the validation corpus (pool
 *                          passages + the variants above) with model vectors that the exact
 *                          top-10 with derived vectors also holds
 * @param onModel           the validation corpus measured with model vectors
 * @param onDerived         the same texts measured with derived vectors
 */
public record Validation(int variants, double meanCosine, double p5Cosine, double minCosine,
    double sourceCosine, double neighbourOverlap, SizeResult onModel, SizeResult onDerived) {}
