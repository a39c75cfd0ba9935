import fc from 'fast-check';
import { filtersFromParams, paramsFromFilters, streamBody, streamQuery, type EventFilters } from './stream-query';

describe('event stream filters', () => {
  it('become one bool filter of the search DSL', () => {
    expect(streamQuery({ from: '-1h', to: 'now' })).toEqual({ match_all: {} });
    expect(
      streamQuery({ from: '-1h', to: 'now', status: '5xx', verb: 'post', route: '/orders/:id', userId: 'u1', companyId: 'c1', text: 'metadata.plan:pro' }),
    ).toEqual({
      bool: {
        filter: [
          { range: { 'response.status': { gte: 500, lt: 600 } } },
          { term: { 'request.verb.raw': 'POST' } },
          { term: { 'request.route.raw': '/orders/:id' } },
          { term: { 'user_id.raw': 'u1' } },
          { term: { 'company_id.raw': 'c1' } },
          { query_string: { query: 'metadata.plan:pro' } },
        ],
      },
    });
    expect(streamQuery({ from: '-1h', to: 'now', status: '404' })).toEqual({ bool: { filter: [{ term: { 'response.status': 404 } }] } });
  });

  it('page newest first with search_after on (time, id)', () => {
    expect(streamBody({ from: '-1h', to: 'now' }, ['2026-01-01T00:00:00Z', 'e1'])).toMatchObject({
      size: 50,
      search_after: ['2026-01-01T00:00:00Z', 'e1'],
      sort: [{ 'request.time': { order: 'desc' } }, { _id: { order: 'desc' } }],
    });
  });

  it('live in the URL: what the URL says comes back as the same filters', () => {
    const text = fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: undefined });
    fc.assert(
      fc.property(
        fc.record({
          from: fc.constantFrom('-24h', '-1h', '2026-01-01T00:00:00Z'),
          to: fc.constantFrom('now', '2026-02-01T00:00:00Z'),
          status: text,
          verb: text,
          route: text,
          userId: text,
          companyId: text,
          text,
        }),
        (raw) => {
          const filters = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined)) as unknown as EventFilters;
          const back = filtersFromParams(new URLSearchParams(paramsFromFilters(filters).toString()));
          expect(Object.fromEntries(Object.entries(back).filter(([, value]) => value !== undefined))).toEqual(filters);
        },
      ),
    );
  });
});
