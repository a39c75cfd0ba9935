import { eventsOfRows, joinCriteria, NEW_CONDITION, splitCriteria } from './event-conditions';

describe('event conditions in the cohort editor', () => {
  it('become criteria.events, each window as the API takes it', () => {
    const events = eventsOfRows({
      match: 'any',
      rows: [
        { ...NEW_CONDITION, queryText: 'request.verb:POST', operator: 'gt', value: 10 },
        { ...NEW_CONDITION, performed: false, measure: 'distinct', field: ' request.route.raw ', window: 'calendar', calendar: 'week', periodsAgo: 1 },
        { ...NEW_CONDITION, measure: 'sum_weight', window: 'billing_period' },
      ],
    });
    expect(events).toEqual({
      match: 'any',
      conditions: [
        { query: { query_string: { query: 'request.verb:POST' } }, measure: 'count', operator: 'gt', value: 10, window: { last: 30, unit: 'days' } },
        { performed: false, measure: 'distinct', field: 'request.route.raw', operator: 'gte', value: 1, window: { calendar: 'week', periods_ago: 1 } },
        { measure: 'sum_weight', operator: 'gte', value: 1, window: { billing_period: 'current' } },
      ],
    });
    expect(eventsOfRows({ match: 'all', rows: [] })).toBeUndefined();
    expect(() => eventsOfRows({ match: 'all', rows: [{ ...NEW_CONDITION, queryText: '{"term":' }] })).toThrow(SyntaxError);
  });

  it('split stored criteria into the profile text and the rows, and join them back', () => {
    const profile = { term: { 'metadata.plan.raw': 'pro' } };
    const events = eventsOfRows({ match: 'all', rows: [{ ...NEW_CONDITION, window: 'calendar', calendar: 'quarter' }] });
    const criteria = joinCriteria(profile, events);
    expect(criteria).toEqual({ query: profile, events });
    const split = splitCriteria(criteria);
    expect(split.profileText).toBe(JSON.stringify(profile, null, 2));
    expect(eventsOfRows(split.events)).toEqual(events);
    // Criteria without behaviour stay a bare query.
    expect(joinCriteria(profile, undefined)).toBe(profile);
    expect(splitCriteria({ query_string: { query: 'metadata.plan:pro' } })).toEqual({ profileText: 'metadata.plan:pro', events: { match: 'all', rows: [] } });
  });
});
