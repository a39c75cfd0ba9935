import * as z from 'zod';

/**
 * Free-form JSON as the resource table can hold it (functions/resources/storable.ts checks it on every write):
 * no empty member names, numbers exact as doubles (within ±(2^53 − 1)) and not nearer to 0 than 1e-130.
 * The documents state it once, as the StoredJson component; nesting depth and size are checked, not stated.
 */
const STORED_JSON_REF = { $ref: '#/components/schemas/StoredJson' };

const SCALAR = { type: ['string', 'boolean', 'null'] };
const NUMBER = {
  type: 'number',
  minimum: -Number.MAX_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
  not: { exclusiveMinimum: -1e-130, exclusiveMaximum: 1e-130, not: { const: 0 } },
};
const OBJECT = { type: 'object', propertyNames: { minLength: 1 }, additionalProperties: STORED_JSON_REF };

/**
 * The recursion passes through objects only: an array's items are stated one level deep (arrays within arrays are
 * left open), because TypeScript cannot name an array of a type alias from inside that alias (the console's types
 * are generated from these documents).
 */
export const STORED_JSON_SCHEMA = {
  description: 'Any JSON the service can store: member names not empty; numbers within ±9007199254740991 and 0 or at least 1e-130 from it.',
  anyOf: [SCALAR, NUMBER, { type: 'array', items: { anyOf: [SCALAR, NUMBER, OBJECT, { type: 'array' }] } }, OBJECT],
};

/** A free-form JSON object member of a stored resource (colors, design, chunks, policy.resource…). */
export const StoredObject = z.record(z.string(), z.unknown()).meta({ propertyNames: { minLength: 1 }, additionalProperties: STORED_JSON_REF });
