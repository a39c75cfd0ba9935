import fc from 'fast-check';
import { parseCohortCriteria, readStoredCriteria } from '../../../functions/cohorts/cohort-criteria';
import { ValidationError } from '../../../functions/shared/errors';

const refusal = (criteria: Record<string, unknown>, type: 'user' | 'company' = 'company') => {
  try {
    parseCohortCriteria(criteria, type);
  } catch (error) {
    if (error instanceof ValidationError) return error.details[0];
    throw error;
  }
  throw new Error('accepted');
};

test('profile criteria alone parse as before; events sit beside the profile query', () => {
  expect(parseCohortCriteria({ term: { 'metadata.plan': 'pro' } }, 'company').events).toBeUndefined();
  const parsed = parseCohortCriteria(
    {
      query: { term: { 'metadata.plan': 'pro' } },
      events: {
        conditions: [{ query: { term: { 'request.verb': 'POST' } }, measure: 'sum_weight', operator: 'gt', value: 10, window: { last: 7, unit: 'days' } }],
      },
    },
    'company',
  );
  expect(parsed.events?.conditions).toHaveLength(1);
  expect(parseCohortCriteria({ events: { match: 'any', conditions: [{ performed: false, window: { billing_period: 'current' } }] } }, 'user').profiles).toEqual(
    {
      type: 'match_all',
    },
  );
});

test('each problem of a condition is a 400 naming its member', () => {
  expect(refusal({ events: { conditions: [{ window: { last: 0, unit: 'days' } }] } })?.field).toBe('criteria.events.conditions[0].window.last');
  expect(refusal({ events: { conditions: [{ window: { calendar: 'fortnight' } }] } })?.field).toBe('criteria.events.conditions[0].window.calendar');
  expect(refusal({ events: { conditions: [{ window: { every: 'day' } }] } })?.reason).toBe(
    'must be {last, unit}, {calendar, periods_ago} or {billing_period: "current"}',
  );
  expect(refusal({ events: { conditions: [] } })).toMatchObject({ field: 'criteria.events.conditions' });
  expect(refusal({ events: { conditions: [{ window: { last: 1, unit: 'days' }, colour: 'red' }] } })).toMatchObject({
    field: 'criteria.events.conditions[0].colour',
    reason: 'is not a known field',
  });
  expect(refusal({ events: { conditions: [{ measure: 'distinct', window: { last: 1, unit: 'days' } }] } })).toEqual({
    field: 'criteria.events.conditions[0].field',
    reason: 'is required when measure is distinct',
  });
  expect(refusal({ events: { conditions: [{ measure: 'distinct', field: 'request.route', window: { last: 1, unit: 'days' } }] } })?.field).toBe(
    'criteria.events.conditions[0].field',
  );
  expect(refusal({ events: { conditions: [{ query: { script: {} }, window: { last: 1, unit: 'days' } }] } })?.field).toMatch(
    /^criteria\.events\.conditions\[0\]\.query/,
  );
  expect(refusal({ events: { conditions: [{ query: { query: { match_all: {} } }, window: { last: 1, unit: 'days' } }] } })?.field).toBe(
    'criteria.events.conditions[0].query',
  );
  expect(refusal({ bool: { filter: [] }, events: { conditions: [{ window: { last: 1, unit: 'days' } }] } })?.field).toBe('criteria.events');
});

test('stored criteria that cannot be read say why instead of selecting everyone', () => {
  expect(readStoredCriteria('{', 'user')).toBe('criteria is not JSON');
  expect(readStoredCriteria('[]', 'user')).toBe('criteria is not a JSON object');
  expect(readStoredCriteria(JSON.stringify({ events: { conditions: [{ window: {} }] } }), 'user')).toMatch(/criteria\.events\.conditions\[0\]\.window/);
});

test('any events member is either taken or refused with a 400 naming a field under criteria.events, never anything else', () => {
  const condition = fc.record(
    {
      performed: fc.oneof(fc.boolean(), fc.anything()),
      query: fc.oneof(fc.constant({ term: { 'request.verb': 'POST' } }), fc.dictionary(fc.string(), fc.anything())),
      measure: fc.oneof(fc.constantFrom('count', 'sum_weight', 'distinct'), fc.anything()),
      field: fc.oneof(fc.constantFrom('request.route.raw', 'user_id'), fc.string()),
      operator: fc.oneof(fc.constantFrom('gte', 'lt', 'eq'), fc.anything()),
      value: fc.oneof(fc.integer(), fc.double(), fc.anything()),
      window: fc.oneof(
        fc.record({ last: fc.integer({ min: -2, max: 200_000 }), unit: fc.constantFrom('minutes', 'days', 'weeks') }),
        fc.record({ calendar: fc.constantFrom('week', 'month', 'fortnight'), periods_ago: fc.integer({ min: -1, max: 2000 }) }, { requiredKeys: [] }),
        fc.record({ billing_period: fc.constantFrom('current', 'next') }),
        fc.anything(),
      ),
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(
      fc.oneof(fc.record({ match: fc.anything(), conditions: fc.array(condition, { maxLength: 12 }) }, { requiredKeys: [] }), fc.anything()),
      (events) => {
        try {
          parseCohortCriteria({ query: { match_all: {} }, events }, 'company');
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
          const details = (error as ValidationError).details;
          expect(details.length).toBeGreaterThan(0);
          for (const detail of details) expect(detail.field).toMatch(/^criteria\.events/);
        }
      },
    ),
    { numRuns: 500 },
  );
});
