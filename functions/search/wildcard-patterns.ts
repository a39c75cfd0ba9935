/**
 * Wildcard and prefix patterns: the caps that keep their matching cheap on both backends, and one
 * normal form of a wildcard pattern.
 *
 * Why: DuckDB rewrites a regular expression such as `^.*..*.z$` into `LIKE '%_%_z'`, and its LIKE
 * backtracks (time exponential in the number of `%`), and OpenSearch determinizes a wildcard into
 * an automaton whose size grows with every `?` after a `*`. The normal form collapses every run of
 * wildcards into its `?`s followed by at most one `*` (the same set of strings), and the caps bound
 * what is left.
 */

/** OpenSearch's own index.max_regex_length; far beyond any URI or name pattern in practice. */
export const MAX_PATTERN_LENGTH = 1000;
/** `*` and `?` in a wildcard pattern after its runs are collapsed: 2^10 automaton states at worst. */
export const MAX_PATTERN_WILDCARDS = 10;

export type PatternPart = { readonly kind: 'literal'; readonly ch: string } | { readonly kind: 'any-one' } | { readonly kind: 'any-run' };

/** The pattern's characters: literals (backslash escapes undone; a trailing backslash is literal), `?` and `*`. */
export function wildcardParts(pattern: string): PatternPart[] {
  const parts: PatternPart[] = [];
  const characters = [...pattern];
  for (let i = 0; i < characters.length; i += 1) {
    const ch = characters[i] as string;
    if (ch === '*') parts.push({ kind: 'any-run' });
    else if (ch === '?') parts.push({ kind: 'any-one' });
    else if (ch === '\\' && i + 1 < characters.length) {
      i += 1;
      parts.push({ kind: 'literal', ch: characters[i] as string });
    } else parts.push({ kind: 'literal', ch });
  }
  return parts;
}

/**
 * The same pattern with every run of wildcards written as its `?`s then at most one `*`
 * (`*?*?z` → `??*z`, `a**b` → `a*b`); literals that are wildcard or escape characters stay escaped.
 */
export function normalizeWildcard(pattern: string): string {
  let out = '';
  let anyOne = 0;
  let anyRun = false;
  const flush = () => {
    out += '?'.repeat(anyOne) + (anyRun ? '*' : '');
    anyOne = 0;
    anyRun = false;
  };
  for (const part of wildcardParts(pattern)) {
    if (part.kind === 'any-one') anyOne += 1;
    else if (part.kind === 'any-run') anyRun = true;
    else {
      flush();
      out += part.ch === '*' || part.ch === '?' || part.ch === '\\' ? `\\${part.ch}` : part.ch;
    }
  }
  flush();
  return out;
}

/** A wildcard pattern that is one literal with at most a `*` before and after it: the string test it stands for. */
export interface LiteralWildcard {
  readonly match: 'equals' | 'prefix' | 'suffix' | 'contains';
  readonly literal: string;
}

/**
 * The pattern as a plain string test when it is one (`/v1/*`, `*\/search`, `*error*`), which a
 * backend can run without a regular expression; undefined when it holds a `?` or a `*` inside.
 */
export function literalWildcard(pattern: string): LiteralWildcard | undefined {
  const parts = wildcardParts(pattern);
  const leading = parts[0]?.kind === 'any-run';
  const trailing = parts.length > (leading ? 1 : 0) && parts[parts.length - 1]?.kind === 'any-run';
  const middle = parts.slice(leading ? 1 : 0, trailing ? -1 : undefined);
  let literal = '';
  for (const part of middle) {
    if (part.kind !== 'literal') return undefined;
    literal += part.ch;
  }
  const match = leading && trailing ? 'contains' : leading ? 'suffix' : trailing ? 'prefix' : 'equals';
  return { match, literal };
}

/** Why a pattern is refused, or undefined when it is within the caps. */
export function patternProblem(kind: 'prefix' | 'wildcard', pattern: string): string | undefined {
  const length = [...pattern].length;
  if (length > MAX_PATTERN_LENGTH) return `a ${kind} pattern may be at most ${MAX_PATTERN_LENGTH} characters; this one has ${length}`;
  if (kind === 'prefix') return undefined;
  const wildcards = wildcardParts(normalizeWildcard(pattern)).filter((part) => part.kind !== 'literal').length;
  if (wildcards > MAX_PATTERN_WILDCARDS) {
    return `a wildcard pattern may hold at most ${MAX_PATTERN_WILDCARDS} wildcards (* and ?, a run of * counted once); this one has ${wildcards}`;
  }
  return undefined;
}

/** The reference semantics of a wildcard pattern over a whole string (tests compare both backends with it). */
export function wildcardMatches(pattern: string, text: string): boolean {
  const parts = wildcardParts(pattern);
  const chars = [...text];
  // Positions of the pattern reachable after each character: a set-of-states walk, linear in the text.
  let states = new Set<number>([0]);
  const close = (set: Set<number>) => {
    for (const state of [...set]) {
      for (let at = state; parts[at]?.kind === 'any-run'; at += 1) set.add(at + 1);
    }
    return set;
  };
  states = close(states);
  for (const ch of chars) {
    const next = new Set<number>();
    for (const state of states) {
      const part = parts[state];
      if (part === undefined) continue;
      if (part.kind === 'any-run') next.add(state);
      else if (part.kind === 'any-one' || part.ch === ch) next.add(state + 1);
    }
    states = close(next);
    if (states.size === 0) return false;
  }
  return states.has(parts.length);
}

/**
 * A matcher for a wildcard pattern over whole strings, for the places that match names or paths in
 * the process (virtual event types, `_source` filters): never a regular expression built from the
 * request, which backtracks exponentially on patterns such as `*a*a*a*a*b`. The greedy walk keeps
 * one place to resume (the last `*`), so a test takes at most pattern × text steps. `parts` defaults
 * to the DSL's syntax (wildcardParts); case-insensitive matching folds each character to lower case.
 */
export function wildcardMatcher(pattern: string | readonly PatternPart[], caseInsensitive = false): (text: string) => boolean {
  const fold = (ch: string) => (caseInsensitive ? ch.toLowerCase() : ch);
  const parts = (typeof pattern === 'string' ? wildcardParts(pattern) : pattern).map((part) =>
    part.kind === 'literal' ? { kind: part.kind, ch: fold(part.ch) } : part,
  );
  return (text) => {
    const chars = [...text];
    let at = 0;
    let next = 0;
    // The last `*` seen and the character its run would take next when the walk resumes there.
    let star = -1;
    let resume = 0;
    while (next < chars.length) {
      const part = parts[at];
      if (part !== undefined && part.kind === 'any-run') {
        star = at;
        resume = next;
        at += 1;
      } else if (part !== undefined && (part.kind === 'any-one' || part.ch === fold(chars[next] as string))) {
        at += 1;
        next += 1;
      } else if (star !== -1) {
        at = star + 1;
        resume += 1;
        next = resume;
      } else return false;
    }
    while (parts[at]?.kind === 'any-run') at += 1;
    return at === parts.length;
  };
}
