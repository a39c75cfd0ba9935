/** Whether a parsed JSON value is an object (not an array, not null): how the console checks what it did not type. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
