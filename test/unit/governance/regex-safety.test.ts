import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { assertLinearRegexConfig } from '../../../functions/management/regex-config-safety';
import { regexBacktrackingProblem } from '../../../values/regex-safety';

/**
 * Governance regexes run in the SDKs' backtracking engines, inside our users' API servers: only a
 * pattern proven linear is accepted. Known ReDoS patterns (recheck's and OWASP's examples, and the
 * two that took 16.7 s and 64.7 s in Node) are refused; every accepted pattern of the project's
 * tests matches an adversarial 10,000-character input within 10 ms.
 */

const KNOWN_REDOS: [string, RegExp][] = [
  // Reported: 16.7 s on 25 characters, 64.7 s on 101.
  ['.*.*.*.*.*.*.*.*.*.*=.*$', /polynomial/],
  ['\\d+\\d+\\d+\\d+\\d+\\d+$', /polynomial/],
  // OWASP's "Regular expression Denial of Service" examples.
  ['^(a+)+$', /exponential/],
  ['^([a-zA-Z]+)*$', /exponential/],
  ['^(a|aa)+$', /exponential/],
  ['^(a|a?)+$', /exponential/],
  ['^(.*a){12}$', /polynomial|exponential/],
  ['^(([a-z])+.)+[A-Z]([a-z])+$', /exponential/],
  ['^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$', /exponential/],
  // recheck's documentation and playground examples.
  ['^(a|a)*$', /exponential/],
  ['^(\\w+\\s?)*$', /exponential/],
  ['(a*)*b', /exponential|polynomial/],
  ['^a*a*$', /polynomial/],
  // Refused by the earlier heuristic too.
  ['^(a|b|c)*0-0-0(x+x+)+y$', /exponential/],
  ['(x{1,5}){2,}z', /exponential|polynomial/],
  ['(\\w|\\d)+!', /exponential|polynomial/],
  // Unanchored repetitions side by side are quadratic in a backtracking search: the earlier heuristic let them through.
  ['.*/admin/.*', /polynomial/],
  ['(\\d{3}-)+\\d{4}', /polynomial/],
  ['(ab|cd)*e', /polynomial/],
];

/** Every pattern the project's tests and docs accept (governance, sampling, the SDK suites). */
const ACCEPTED = [
  '',
  '.*',
  '/a',
  '^/a',
  'ok',
  'GET',
  '/v1/.*',
  '^/admin',
  '^/health',
  '^/ok$',
  '/blocked$',
  '^/blocked',
  '^/v[0-9]+/items$',
  '^/api/v1/.*$',
  '^(GET|POST|PUT)$',
  '^/users/[^/]+/orders/\\d+$',
  '^/api/(users|orders)/\\d+',
  '^.*\\.(png|jpg)$',
  '(?:x|y|z){2,5}',
  '\\bword\\b',
  '^$',
  '[^]*',
];

/** Inputs that make backtracking engines work: long runs of the characters a pattern names, ended by one that fails it. */
function adversarialInputs(pattern: string): string[] {
  const alphabet = new Set([...pattern.replace(/\\[a-z]/gi, ''), 'a', '0', '/', ' ', '.', '-', '_', 'x']);
  const endings = ['!', '\n', '\u0000'];
  return [...alphabet].flatMap((ch) => endings.map((end) => ch.repeat(10_000) + end)).concat(['/a'.repeat(5_000), `${'a0'.repeat(5_000)}!`]);
}

function slowestMatchMs(pattern: string): number {
  const regex = new RegExp(pattern);
  let slowest = 0;
  for (const input of adversarialInputs(pattern)) {
    const started = performance.now();
    regex.test(input);
    slowest = Math.max(slowest, performance.now() - started);
  }
  return slowest;
}

describe('governance regexes: only patterns proven linear in backtracking engines', () => {
  it.each(KNOWN_REDOS)('%s is refused, naming its complexity', async (pattern, complexity) => {
    expect(await regexBacktrackingProblem(pattern)).toMatch(complexity);
  });

  it.each(['^(a|a)*\\1$', '(?=(a+))+b', '^((\\w)\\2)*!'])(
    '%s (a backreference or lookaround under a repetition) cannot be proven linear and is refused',
    async (pattern) => {
      expect(await regexBacktrackingProblem(pattern)).toMatch(/cannot be proven/);
    },
  );

  it.each(ACCEPTED)('%s is accepted and matches adversarial 10,000-character inputs within 10 ms', async (pattern) => {
    expect(await regexBacktrackingProblem(pattern)).toBeUndefined();
    expect(slowestMatchMs(pattern)).toBeLessThan(10);
  });

  it('accepts a pattern only when it stays fast on adversarial inputs (property)', async () => {
    const atom = fc.constantFrom('a', 'b', '\\d', '[a-c]', '.', '\\w', 'x', '(?:ab|b)', '(?:a|x)');
    const quantifier = fc.constantFrom('', '', '+', '*', '?', '{1,3}', '{2,}');
    const pattern = fc
      .tuple(fc.boolean(), fc.array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 5 }), fc.boolean())
      .map(([start, parts, end]) => `${start ? '^' : ''}${parts.map(([a, q]) => a + q).join('')}${end ? '$' : ''}`);
    await fc.assert(
      fc.asyncProperty(pattern, async (source) => {
        if ((await regexBacktrackingProblem(source)) === undefined) expect([source, slowestMatchMs(source) < 10]).toEqual([source, true]);
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it("names each refused condition of a rule's regex_config, and passes a config whose conditions are all linear", async () => {
    const refused = assertLinearRegexConfig(
      [{ conditions: [{ value: '^/ok$' }] }, { conditions: [{ value: '^/ok$' }, { value: '\\d+\\d+\\d+\\d+\\d+\\d+$' }] }],
      'regex_config',
    );
    await expect(refused).rejects.toMatchObject({
      status: 400,
      details: [{ field: 'regex_config[1].conditions[1].value', reason: expect.stringContaining('polynomial') }],
    });
    await expect(assertLinearRegexConfig([{ conditions: [{ value: '^/v1/.*$' }, { value: 'GET' }] }], 'regex_config')).resolves.toBeUndefined();
    await expect(assertLinearRegexConfig(undefined, 'regex_config')).resolves.toBeUndefined();
  });
});
