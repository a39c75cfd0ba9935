import { callerIp, sessionTokenFromHeaders } from '../../../functions/ingest/collector/caller-context';
import { IssueList } from '../../../functions/ingest/collector/field-issues';
import { MAX_LISTED_ISSUES, fieldIssuesOf } from '../../../functions/shared/invalid-input';

describe('callerIp', () => {
  it.each<[string, string | undefined, string | undefined]>([
    ['10.0.0.1', undefined, '10.0.0.1'],
    ['10.0.0.1', '203.0.113.9', '203.0.113.9'],
    ['10.0.0.1', '203.0.113.9, 70.41.3.18, 150.172.238.178', '203.0.113.9'],
    ['10.0.0.1', '  2001:db8::1 ,10.0.0.2', '2001:db8::1'],
    ['10.0.0.1', '', '10.0.0.1'],
    ['10.0.0.1', ' ,203.0.113.9', '10.0.0.1'],
    ['', undefined, undefined],
  ])('source %j, X-Forwarded-For %j → %j', (sourceIp, forwardedFor, expected) => {
    expect(callerIp(sourceIp, forwardedFor)).toBe(expected);
  });
});

describe('sessionTokenFromHeaders', () => {
  it('matches header names case-insensitively', () => {
    expect(sessionTokenFromHeaders({ 'X-Api-KEY': 'k1' })).toBe('k1');
  });

  it('strips only the Bearer, Basic and Token schemes of Authorization', () => {
    expect(sessionTokenFromHeaders({ authorization: 'BEARER t' })).toBe('t');
    expect(sessionTokenFromHeaders({ authorization: 'Digest username="a"' })).toBe('Digest username="a"');
    expect(sessionTokenFromHeaders({ 'x-api-key': 'Bearer kept-as-is' })).toBe('Bearer kept-as-is');
  });

  it('ignores blank values and unrelated headers', () => {
    expect(sessionTokenFromHeaders({ authorization: '  ', cookie: 'session=abc', 'x-apikey': 'no' })).toBeUndefined();
  });
});

describe('field issues', () => {
  it('writes zod paths in dotted form with array positions', () => {
    const issues = fieldIssuesOf(
      [
        { code: 'custom', message: 'bad', path: ['items', 2, 'plan_id'], input: 1 },
        { code: 'custom', message: 'bad', path: ['request', 'headers', 'x-id'], input: 1 },
        { code: 'custom', message: 'bad', path: [], input: 1 },
      ],
      { index: 4, root: 'item' },
    );
    expect(issues.map((issue) => issue.field)).toEqual(['items[2].plan_id', 'request.headers.x-id', 'item']);
    expect(issues.every((issue) => issue.index === 4)).toBe(true);
  });

  it('caps what it lists but counts everything', () => {
    const list = new IssueList();
    for (let i = 0; i < 60; i++)
      list.add([
        { index: i, field: 'a', reason: 'r' },
        { index: i, field: 'b', reason: 'r' },
      ]);
    expect(list.listed).toHaveLength(MAX_LISTED_ISSUES);
    expect(list.total).toBe(120);
    expect(list.badItems).toBe(60);
    expect(list.capped).toBe(true);
  });
});
