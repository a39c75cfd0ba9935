import fc from 'fast-check';
import { GovernanceRuleCreate } from '../../../schemas/resources/governance-rule';
import { regexBacktrackingProblem } from '../../../values/regex-safety';

describe('governance regexes: catastrophic backtracking is refused', () => {
  it.each([
    ['^(a|b|c)*0-0-0(x+x+)+y$', /nests a variable repetition/],
    ['(a+)+$', /nests a variable repetition/],
    ['(a*)*b', /nests a variable repetition/],
    ['(x{1,5}){2,}', /nests a variable repetition/],
    ['(a|ab)*c', /branches can start with the same character/],
    ['(\\w|\\d)+!', /branches can start with the same character/],
    ['(.|a)+', /branches can start with the same character/],
    ['(a|)+b', /can match nothing/],
    ['(?=a)a', /lookaround/],
    ['(?<!a)b', /lookaround/],
    ['(a)\\1', /backreference/],
    ['(?<x>a)\\k<x>', /backreference/],
  ])('%s is refused', (pattern, reason) => {
    expect(regexBacktrackingProblem(pattern)).toMatch(reason);
  });

  it.each([
    '^/api/v1/.*$',
    '.*/admin/.*',
    '^(GET|POST|PUT)$',
    '^/users/[^/]+/orders/\\d+$',
    '(\\d{3}-)+\\d{4}',
    '(ab|cd)*e',
    '(?:x|y|z){2,5}',
    '[\\]a-c]+\\u0041\\x42\\cJ',
    '\\bword\\b',
    '^$',
    '[^]*',
  ])('%s is accepted', (pattern) => {
    expect(regexBacktrackingProblem(pattern)).toBeUndefined();
  });

  const atom = fc.constantFrom('a', 'b', '\\d', '[a-c]', '.', '\\w', 'x');
  const quantifier = fc.constantFrom('+', '*', '{1,3}', '{2,}');

  it('refuses every repetition of a variable repetition, whatever its atoms', () => {
    fc.assert(
      fc.property(atom, atom, quantifier, quantifier, (first, second, inner, outer) => {
        expect(regexBacktrackingProblem(`^(${first}${second}${inner})${outer}$`)).toMatch(/nests a variable repetition/);
      }),
    );
  });

  it('accepts sequences of single-level repetitions of any atoms', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(atom, fc.option(quantifier)), { minLength: 1, maxLength: 8 }), (parts) => {
        const pattern = `^${parts.map(([a, q]) => a + (q ?? '')).join('')}$`;
        expect(regexBacktrackingProblem(pattern)).toBeUndefined();
      }),
    );
  });

  it('names the condition in a governance rule', () => {
    const parsed = GovernanceRuleCreate.safeParse({
      name: 'Slow rule',
      type: 'regex',
      state: 1,
      block: true,
      applied_to: 'matching',
      applied_to_unidentified: false,
      regex_config: [
        { conditions: [{ path: 'request.route', value: '^/ok$' }] },
        { conditions: [{ path: 'request.route', value: '^(a|b|c)*0-0-0(x+x+)+y$' }] },
      ],
    });
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues.find((i) => i.path.join('.') === 'regex_config.1.conditions.0.value');
    expect(issue?.message).toMatch(/nests a variable repetition/);
  });
});
