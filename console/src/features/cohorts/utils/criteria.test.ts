import fc from 'fast-check';
import { criteriaFromText, textOfCriteria } from './criteria';

describe('cohort criteria', () => {
  it('read query-string terms, JSON queries and bodies, and an empty text as everyone', () => {
    expect(criteriaFromText('metadata.plan:pro')).toEqual({ query_string: { query: 'metadata.plan:pro' } });
    expect(criteriaFromText('{"term":{"company_id.raw":"acme"}}')).toEqual({ term: { 'company_id.raw': 'acme' } });
    expect(criteriaFromText('  ')).toEqual({ match_all: {} });
    expect(() => criteriaFromText('{"term":')).toThrow(SyntaxError);
    expect(() => criteriaFromText('{')).toThrow(SyntaxError);
  });

  it('give back the text they were made from', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z._]{1,10}:[a-z0-9]{1,10}( AND [a-z._]{1,10}:[a-z0-9]{1,10})?$/), (text) => {
        expect(textOfCriteria(criteriaFromText(text))).toBe(text);
      }),
    );
    const json = { bool: { filter: [{ term: { 'metadata.plan.raw': 'pro' } }] } };
    expect(criteriaFromText(textOfCriteria(json))).toEqual(json);
  });
});
