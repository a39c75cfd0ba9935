import * as z from 'zod';

/** `take`: how many items a page holds, 1 to 1000, from a query parameter (text) or a JSON body. */
export const PageTake = z.coerce
  .number({ error: 'must be a whole number from 1 to 1000' })
  .int('must be a whole number from 1 to 1000')
  .min(1, 'must be a whole number from 1 to 1000')
  .max(1000, 'must be a whole number from 1 to 1000');
