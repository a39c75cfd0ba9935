import * as z from 'zod';

/** What a resource id may hold: what the service generates, and what a person may choose (a provider's ids, `starter`). */
export const RESOURCE_ID_SHAPE = /^[A-Za-z0-9_-]{1,128}$/;

/** An id chosen by the caller instead of a generated one. */
export const ChosenId = z
  .string()
  .regex(RESOURCE_ID_SHAPE, 'must be 1-128 letters, digits, _ or -')
  .meta({ description: 'An id of your choice (a provider id such as price_1Nx…, or starter); generated when absent' });
