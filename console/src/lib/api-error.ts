/** An answer of the API other than success, in the service's one error shape. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The fields the API named, with why each was refused. */
    readonly details: readonly { field: string; reason: string }[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Reads `{error: {status, code, message, details}}` (or OAuth's `{error, error_description}`) into an ApiError. */
export function apiErrorOf(status: number, body: unknown): ApiError {
  const error = (body as { error?: unknown; error_description?: unknown } | undefined)?.error;
  if (error && typeof error === 'object') {
    const { code, message, details } = error as { code?: string; message?: string; details?: { field: string; reason: string }[] };
    return new ApiError(status, code ?? 'error', message ?? `The API answered ${status}`, details ?? []);
  }
  if (typeof error === 'string') {
    const description = (body as { error_description?: unknown }).error_description;
    return new ApiError(status, error, typeof description === 'string' ? description : error);
  }
  return new ApiError(status, 'error', `The API answered ${status}`);
}

/** Why the API refused a field (or anything under it), for showing beside that field; undefined when it did not. */
export function fieldProblem(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const detail = error.details.find((d) => d.field === field || d.field.startsWith(`${field}.`) || d.field.startsWith(`${field}[`));
  return detail && (detail.field === field ? detail.reason : `${detail.field.slice(field.length).replace(/^\./, '')}: ${detail.reason}`);
}
