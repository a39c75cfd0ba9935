import fc from 'fast-check';
import { parseSearchRequest } from '../../../functions/search/dsl';
import {
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_WILDCARDS,
  literalWildcard,
  normalizeWildcard,
  patternProblem,
  wildcardMatcher,
  wildcardMatches,
} from '../../../functions/search/wildcard-patterns';
import { ValidationError } from '../../../functions/shared/errors';
import { event, openDatabase, search, type TestDatabase } from './duckdb-query/fixture';

/** A wildcard pattern as a regular expression in JavaScript: an independent reading of the semantics. */
function jsRegex(pattern: string): RegExp {
  let source = '';
  const characters = [...pattern];
  for (let i = 0; i < characters.length; i += 1) {
    let ch = characters[i] as string;
    if (ch === '*') source += '[^]*';
    else if (ch === '?') source += '[^]';
    else {
      if (ch === '\\' && i + 1 < characters.length) ch = characters[(i += 1)] as string;
      source += ch.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`, 'u');
}

const patternArbitrary = fc.string({ unit: fc.constantFrom('a', 'b', '*', '?', '\\', '.'), maxLength: 12 });
const textArbitrary = fc.string({ unit: fc.constantFrom('a', 'b', '*', '?', '\\', '.', 'é'), maxLength: 14 });

describe('wildcard patterns: the reference matcher', () => {
  it('agrees with a regular expression reading of the pattern', () => {
    fc.assert(
      fc.property(patternArbitrary, textArbitrary, (pattern, text) => {
        expect(wildcardMatches(pattern, text)).toBe(jsRegex(pattern).test(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('the in-process matcher agrees with the reference, case-sensitive and folded', () => {
    fc.assert(
      fc.property(patternArbitrary, textArbitrary, fc.boolean(), (pattern, text, folded) => {
        const expected = folded ? new RegExp(jsRegex(pattern).source, 'iu').test(text) : wildcardMatches(pattern, text);
        expect(wildcardMatcher(pattern, folded)(text)).toBe(expected);
        expect(wildcardMatcher(pattern, folded)(folded ? text.toUpperCase() : text)).toBe(folded ? expected : wildcardMatches(pattern, text));
      }),
      { numRuns: 3000 },
    );
  });

  it('answers patterns that make a backtracking expression run for minutes at once', () => {
    // `*a*a*a*a*a*b` against 128 letters held the whole process for 66 s as a RegExp; here it is 128 × 11 steps at most.
    const name = 'a'.repeat(128);
    expect(wildcardMatcher('*a*a*a*a*a*b')(name)).toBe(false);
    expect(wildcardMatcher('*a*a*a*a*a*a*a*a*a*b', true)(name.repeat(8))).toBe(false);
    expect(wildcardMatcher('*a*a*a*a*a*')(name)).toBe(true);
  });

  it('normalizing keeps the set of matched strings and collapses every run of wildcards', () => {
    fc.assert(
      fc.property(patternArbitrary, textArbitrary, (pattern, text) => {
        const normal = normalizeWildcard(pattern);
        expect(wildcardMatches(normal, text)).toBe(wildcardMatches(pattern, text));
        expect(normalizeWildcard(normal)).toBe(normal);
        expect(normal).not.toMatch(/(^|[^\\])(\\\\)*\*[*?]/);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a literal with stars only at its ends as a plain string test', () => {
    expect(literalWildcard('*/search')).toEqual({ match: 'suffix', literal: '/search' });
    expect(literalWildcard('/v1/*')).toEqual({ match: 'prefix', literal: '/v1/' });
    expect(literalWildcard('*err*')).toEqual({ match: 'contains', literal: 'err' });
    expect(literalWildcard('exact')).toEqual({ match: 'equals', literal: 'exact' });
    expect(literalWildcard('*')).toEqual({ match: 'suffix', literal: '' });
    expect(literalWildcard('a\\*b*')).toEqual({ match: 'prefix', literal: 'a*b' });
    expect(literalWildcard('a*b')).toBeUndefined();
    expect(literalWildcard('*a?')).toBeUndefined();
  });

  it('writes *?*? as ??* and keeps escapes', () => {
    expect(normalizeWildcard('*?*?*?z')).toBe('???*z');
    expect(normalizeWildcard('a**b')).toBe('a*b');
    expect(normalizeWildcard('\\*\\?x*')).toBe('\\*\\?x*');
    expect(normalizeWildcard('end\\')).toBe('end\\\\');
  });
});

describe('wildcard patterns: caps', () => {
  it('refuses a pattern over the length cap or with too many wildcards, naming the field', () => {
    expect(patternProblem('wildcard', 'a'.repeat(MAX_PATTERN_LENGTH))).toBeUndefined();
    expect(patternProblem('prefix', 'a'.repeat(MAX_PATTERN_LENGTH + 1))).toMatch(/at most 1000 characters/);
    expect(patternProblem('wildcard', '*?'.repeat(MAX_PATTERN_WILDCARDS - 1))).toBeUndefined();
    expect(patternProblem('wildcard', `${'**'.repeat(50)}a?`)).toBeUndefined();
    const parse = (query: unknown) => () => parseSearchRequest({ query }, 'events');
    for (const query of [
      { wildcard: { 'request.uri.raw': `${'*?'.repeat(18)}z` } },
      { bool: { filter: [{ query_string: { query: `request.uri.raw:${'a?'.repeat(11)}` } }] } },
      { prefix: { 'request.uri.raw': 'x'.repeat(MAX_PATTERN_LENGTH + 1) } },
    ]) {
      expect(parse(query)).toThrow(ValidationError);
      try {
        parse(query)();
      } catch (error) {
        const details = (error as ValidationError).details;
        expect(details[0]?.reason).toMatch(/at most/);
        expect(details[0]?.field).toMatch(/request\.uri\.raw|query_string/);
      }
    }
  });
});

describe('wildcard patterns on DuckDB', () => {
  const texts = ['https://api.example.com/items/1?page=2', 'a*b', 'a?b', 'aab', 'ab', 'a.b\\', 'b', '', 'ééa', `${'x'.repeat(1000)}y`];
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openDatabase(
      texts.flatMap((text, i) =>
        event(`e${i}`, '2026-03-10T00:00:00.000Z', { request: { uri: text, verb: 'GET', time: '2026-03-10T00:00:00.000Z' }, metadata: { tag: text } }),
      ),
    );
  });
  afterAll(() => db.close());

  const matching = async (field: string, pattern: string): Promise<string[]> => {
    const answer = await search(db, { query: { wildcard: { [field]: pattern } }, size: 100, sort: [{ _id: 'asc' }] });
    return answer.hits.hits.map((hit) => hit._id).sort();
  };
  const expected = (pattern: string, keywordLimit: number) =>
    texts
      .map((text, i) => ({ text, id: `e${i}` }))
      .filter(({ text }) => [...text].length <= keywordLimit && wildcardMatches(pattern, text))
      .map(({ id }) => id)
      .sort();

  it('matches keyword values exactly as the reference matcher does (typed column and JSON document)', async () => {
    await fc.assert(
      fc.asyncProperty(
        patternArbitrary.filter((pattern) => patternProblem('wildcard', pattern) === undefined),
        async (pattern) => {
          expect(await matching('request.uri.raw', pattern)).toEqual(expected(pattern, 1024));
          expect(await matching('metadata.tag.raw', pattern)).toEqual(expected(pattern, 1024));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('matches patterns that are plain string tests as the reference matcher does', async () => {
    for (const pattern of ['*b', 'a*', '*a*', 'ab', '*', '**', 'a\\*b', '*\\?b', '*1?page=2', 'https:*', '*é*', '']) {
      expect({ pattern, ids: await matching('request.uri.raw', pattern) }).toEqual({ pattern, ids: expected(pattern, 1024) });
      expect({ pattern, ids: await matching('metadata.tag.raw', pattern) }).toEqual({ pattern, ids: expected(pattern, 1024) });
    }
  });

  it('answers the backtracking repro (*? repeated, then z) over a long value without backtracking', async () => {
    // Before normalizing, DuckDB ran this as LIKE '%_%_…z' and took minutes; the jest timeout is the bound here.
    for (const pairs of [2, 6, MAX_PATTERN_WILDCARDS - 1]) {
      expect(await matching('request.uri.raw', `${'*?'.repeat(pairs)}z`)).toEqual([]);
      expect(await matching('request.uri.raw', `${'*?'.repeat(pairs)}y`)).toEqual(['e9']);
    }
  }, 20_000);
});
