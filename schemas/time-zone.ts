import * as z from 'zod';
import { TIME_ZONE_NAMES } from '../values/time-zone-names';

/** A fixed UTC offset as OpenSearch takes it: ±HH, ±HHMM or ±HH:MM, at most 18 hours. */
const FIXED_OFFSET_PATTERN = '^[+-](?:(?:0[0-9]|1[0-7])(?::?[0-5][0-9])?|18(?::?00)?)$';

/**
 * A time zone as requests write it: a TZ database name both engines know (any case; the documents list the
 * names), `Z`, or a fixed offset. The service checks it (functions/search/dates/time-zone.ts); this schema states
 * the same set for the OpenAPI documents, once, as the TimeZone component.
 */
export const TimeZoneName = z
  .string()
  .max(64)
  .meta({
    id: 'TimeZone',
    description: 'A TZ database name such as "Europe/Berlin" (one of the names listed; any case), "Z", or a fixed offset such as "+05:30".',
    anyOf: [
      { type: 'string', enum: ['Z', ...TIME_ZONE_NAMES] },
      { type: 'string', pattern: FIXED_OFFSET_PATTERN },
    ],
  });

/**
 * A date query parameter (`from`, `to`) as functions/search/dates/request-range.ts reads it: an ISO 8601 date or
 * date-time (without an offset: wall clock in time_zone), `now`, or a signed count of s m h d w M.
 */
export const DateParameter = z
  .string()
  .max(64)
  .meta({
    id: 'DateParameter',
    description:
      'An ISO 8601 date or date-time (without an offset: wall-clock time in time_zone), `now`, or a relative time such as -24h, -2w, +1M (units s m h d w M).',
    anyOf: [
      { type: 'string', format: 'date-time' },
      { type: 'string', format: 'date' },
      { type: 'string', pattern: '^(now|[+-]?[0-9]{1,6}[smhdwM])$' },
    ],
  });
