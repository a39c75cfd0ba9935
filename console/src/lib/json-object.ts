/** Whether a parsed JSON value is an object (not an array, not null): how the console checks what it did not type. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/*
 * Readers of documents the API answers as stored (a search hit's `_source`): each answers the
 * value when it has the type the console shows, and undefined otherwise, so a field of another
 * type is left out rather than trusted.
 */
export const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
export const numberOf = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
export const booleanOf = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
export const objectOf = (value: unknown): Record<string, unknown> | undefined => (isJsonObject(value) ? value : undefined);

/** A stored document as the API answers it: a search hit, or one document by id. */
export interface StoredHit {
  readonly _id: string;
  readonly _source?: Record<string, unknown>;
  readonly sort?: readonly unknown[];
}
