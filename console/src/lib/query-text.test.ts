import { withQueryClause } from './field-clauses';
import { queryFromText, textOfQuery } from './query-text';

describe('queries as an editor holds them', () => {
  it('reads query-string terms or JSON, and gives back the text it was written as', () => {
    expect(queryFromText('request.verb:POST')).toEqual({ query_string: { query: 'request.verb:POST' } });
    expect(queryFromText(' ')).toEqual({ match_all: {} });
    expect(queryFromText('{"term":{"a":1}}')).toEqual({ term: { a: 1 } });
    expect(() => queryFromText('{"a":')).toThrow(SyntaxError);
    expect(textOfQuery({ query_string: { query: 'a:1' } })).toBe('a:1');
    expect(textOfQuery({ match_all: {} })).toBe('');
    expect(textOfQuery({ term: { a: 1 } })).toBe(JSON.stringify({ term: { a: 1 } }, null, 2));
  });

  it('adds a picked clause to query-string text, or requires both with JSON', () => {
    expect(withQueryClause('', 'a:1')).toBe('a:1');
    expect(withQueryClause('b:2', 'a:1')).toBe('b:2 AND a:1');
    expect(JSON.parse(withQueryClause('{"term":{"b":2}}', 'a:1'))).toEqual({ bool: { filter: [{ term: { b: 2 } }, { query_string: { query: 'a:1' } }] } });
    expect(withQueryClause('{"broken', 'a:1')).toBe('{"broken');
  });
});
