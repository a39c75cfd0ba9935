/**
 * A collector body may be 50 MB, measured after decompression (spec, Limits: batches; a single
 * over-size event is truncated rather than refused, so single-item bodies get the same ceiling).
 */
export const MAX_BATCH_BYTES = 50_000_000;
