/**
 * Whether a failure to store a record will happen again however often it is retried: the table
 * refused the item (too large, a key too long, nested too deep), the marshaller cannot express the
 * value, or the record itself is invalid. Those records are quarantined at once instead of blocking
 * their shard through every retry; anything else (throttling, timeouts, a lost race) is retried.
 */
export function isPermanentFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof PermanentRecordError) return true;
  // DynamoDB's own refusal of the request's content; throttling and conflicts have other names.
  if (error.name === 'ValidationException' || error.name === 'SerializationException') return true;
  // @aws-sdk/util-dynamodb refusing a value it cannot marshal.
  return /^(Unsupported type passed|Pass options\.|Number .* is greater than Number\.MAX_SAFE_INTEGER|Number .* is lesser than Number\.MIN_SAFE_INTEGER)/.test(
    error.message,
  );
}

/** A record that cannot be stored as it is; thrown by domain code that knows it. */
export class PermanentRecordError extends Error {
  override readonly name = 'PermanentRecordError';
}
