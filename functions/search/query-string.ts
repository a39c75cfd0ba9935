import type { QueryNode } from '../../schemas/search-tree';
import { patternProblem } from './wildcard-patterns';

/**
 * The `query_string` subset both backends support, turned into an ordinary query tree so it has
 * exactly the semantics of the equivalent DSL clauses:
 *   field:value   field:"a phrase"   field:(a OR b)   field:[a TO b]   field:{a TO b}   field:>10
 *   field:>=10    field:<10   field:<=10   field:*   field:pre*   _exists_:field   bare terms
 *   AND OR NOT && || ! + -   ( )   backslash escapes
 * Clauses combine like Lucene's classic query parser (which OpenSearch uses): AND makes both its
 * neighbours required, OR leaves them optional, NOT / - prohibits, + requires, and with
 * default_operator AND a clause not joined by OR is required. Anything else (boosts, fuzziness,
 * proximity, regular expressions, field wildcards) is refused.
 */

export class QueryStringError extends Error {}

export interface QueryStringOptions {
  readonly default_field?: string;
  readonly default_operator: 'or' | 'and';
}

type Token =
  | { kind: 'term'; text: string; raw: string }
  | { kind: 'phrase'; text: string }
  | { kind: 'range'; lower: string; upper: string; includeLower: boolean; includeUpper: boolean }
  | { kind: 'compare'; op: '>' | '>=' | '<' | '<='; text: string }
  | { kind: 'field'; name: string }
  | { kind: 'and' | 'or' | 'not' | 'plus' | 'minus' | 'open' | 'close' | 'all' };

const WHITESPACE = /[\s\u3000]/;
/** Characters that end a term unless escaped. */
const TERM_END = new Set([' ', '\t', '\n', '\r', '\u3000', '(', ')', ':', '^', '[', ']', '"', '{', '}', '~', '\\', '/', '!']);

/** A term's text with escapes resolved (`text`) and as written (`raw`, for wildcard detection). */
function readTerm(input: string, start: number): { text: string; raw: string; end: number } {
  let text = '';
  let raw = '';
  let i = start;
  while (i < input.length) {
    const ch = input[i] as string;
    if (ch === '\\') {
      const next = input[i + 1];
      if (next === undefined) throw new QueryStringError('the query ends with an escape character');
      text += next;
      raw += ch + next;
      i += 2;
      continue;
    }
    if (WHITESPACE.test(ch) || TERM_END.has(ch)) break;
    text += ch;
    raw += ch;
    i += 1;
  }
  return { text, raw, end: i };
}

function unsupported(ch: string): string {
  switch (ch) {
    case '^':
      return 'boosts (^) are not supported';
    case '~':
      return 'fuzzy and proximity searches (~) are not supported';
    case '/':
      return 'regular expressions (/.../) are not supported; escape "/" as "\\/" or quote the value';
    default:
      return `unexpected "${ch}"`;
  }
}

function readRangeBound(input: string, start: number): { text: string; end: number } {
  let i = start;
  while (i < input.length && WHITESPACE.test(input[i] as string)) i += 1;
  if (input[i] === '"') {
    const phrase = readPhrase(input, i);
    return { text: phrase.text, end: phrase.end };
  }
  let text = '';
  while (i < input.length) {
    const ch = input[i] as string;
    if (WHITESPACE.test(ch) || ch === ']' || ch === '}') break;
    if (ch === '\\' && i + 1 < input.length) {
      text += input[i + 1];
      i += 2;
      continue;
    }
    text += ch;
    i += 1;
  }
  if (text === '') throw new QueryStringError('a range needs two bounds: [from TO to]');
  return { text, end: i };
}

function readPhrase(input: string, start: number): { text: string; end: number } {
  let text = '';
  let i = start + 1;
  while (i < input.length) {
    const ch = input[i] as string;
    if (ch === '\\' && i + 1 < input.length) {
      text += input[i + 1];
      i += 2;
      continue;
    }
    if (ch === '"') return { text, end: i + 1 };
    text += ch;
    i += 1;
  }
  throw new QueryStringError('unterminated phrase (missing ")');
}

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i] as string;
    if (WHITESPACE.test(ch)) {
      i += 1;
      continue;
    }
    if (ch === '(' || ch === ')') {
      tokens.push({ kind: ch === '(' ? 'open' : 'close' });
      i += 1;
      continue;
    }
    if (input.startsWith('&&', i) || input.startsWith('||', i)) {
      tokens.push({ kind: ch === '&' ? 'and' : 'or' });
      i += 2;
      continue;
    }
    if (ch === '+' || ch === '-' || ch === '!') {
      tokens.push({ kind: ch === '+' ? 'plus' : ch === '-' ? 'minus' : 'not' });
      i += 1;
      continue;
    }
    if (ch === '"') {
      const phrase = readPhrase(input, i);
      if (input[phrase.end] === '~' || input[phrase.end] === '^') throw new QueryStringError(unsupported(input[phrase.end] as string));
      tokens.push({ kind: 'phrase', text: phrase.text });
      i = phrase.end;
      continue;
    }
    if (ch === '[' || ch === '{') {
      const lower = readRangeBound(input, i + 1);
      let j = lower.end;
      while (j < input.length && WHITESPACE.test(input[j] as string)) j += 1;
      if (!input.startsWith('TO', j)) throw new QueryStringError('a range is written [from TO to]');
      const upper = readRangeBound(input, j + 2);
      j = upper.end;
      while (j < input.length && WHITESPACE.test(input[j] as string)) j += 1;
      const close = input[j];
      if (close !== ']' && close !== '}') throw new QueryStringError('unterminated range (missing ] or })');
      tokens.push({ kind: 'range', lower: lower.text, upper: upper.text, includeLower: ch === '[', includeUpper: close === ']' });
      i = j + 1;
      continue;
    }
    if (ch === '>' || ch === '<') {
      const op = (input[i + 1] === '=' ? `${ch}=` : ch) as '>' | '>=' | '<' | '<=';
      let j = i + op.length;
      let text: string;
      if (input[j] === '"') {
        const phrase = readPhrase(input, j);
        text = phrase.text;
        j = phrase.end;
      } else {
        const term = readTerm(input, j);
        text = term.text;
        j = term.end;
      }
      if (text === '') throw new QueryStringError(`"${op}" needs a value`);
      tokens.push({ kind: 'compare', op, text });
      i = j;
      continue;
    }
    if (TERM_END.has(ch) && ch !== '\\') throw new QueryStringError(unsupported(ch));
    const term = readTerm(input, i);
    i = term.end;
    if (input[i] === ':') {
      if (term.raw === '*' && input[i + 1] === '*' && (i + 2 === input.length || WHITESPACE.test(input[i + 2] as string) || input[i + 2] === ')')) {
        tokens.push({ kind: 'all' });
        i += 2;
        continue;
      }
      if (hasWildcard(term.raw)) throw new QueryStringError(`field wildcards are not supported: ${term.raw}`);
      tokens.push({ kind: 'field', name: term.text });
      i += 1;
      continue;
    }
    if (term.raw === 'AND' || term.raw === 'OR' || term.raw === 'NOT') {
      tokens.push({ kind: term.raw === 'AND' ? 'and' : term.raw === 'OR' ? 'or' : 'not' });
      continue;
    }
    tokens.push({ kind: 'term', text: term.text, raw: term.raw });
  }
  return tokens;
}

type Occur = 'must' | 'should' | 'must_not';
interface Clause {
  occur: Occur;
  query: QueryNode;
}

const MAX_GROUP_DEPTH = 20;

class Parser {
  private position = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly options: QueryStringOptions,
    private readonly checkField: (field: string) => void,
  ) {}

  parseAll(): QueryNode {
    const query = this.parseClauses(this.options.default_field, 0);
    if (this.position < this.tokens.length) throw new QueryStringError('unbalanced parenthesis: unexpected ")"');
    return query;
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  /** Lucene's QueryParserBase.addClause, clause by clause. */
  private parseClauses(field: string | undefined, depth: number): QueryNode {
    if (depth > MAX_GROUP_DEPTH) throw new QueryStringError(`groups may nest at most ${MAX_GROUP_DEPTH} deep`);
    const clauses: Clause[] = [];
    const andDefault = this.options.default_operator === 'and';
    let first = true;
    for (;;) {
      const token = this.peek();
      if (token === undefined || token.kind === 'close') break;
      let conj: 'and' | 'or' | undefined;
      if (token.kind === 'and' || token.kind === 'or') {
        if (first) throw new QueryStringError(`the query cannot start with ${token.kind.toUpperCase()}`);
        conj = token.kind;
        this.position += 1;
      }
      let modifier: 'required' | 'prohibited' | undefined;
      const next = this.peek();
      if (next?.kind === 'not' || next?.kind === 'minus') {
        modifier = 'prohibited';
        this.position += 1;
      } else if (next?.kind === 'plus') {
        modifier = 'required';
        this.position += 1;
      }
      const query = this.parseClause(field, depth);
      if (clauses.length > 0 && conj === 'and') {
        const previous = clauses[clauses.length - 1] as Clause;
        if (previous.occur !== 'must_not') previous.occur = 'must';
      }
      if (clauses.length > 0 && andDefault && conj === 'or') {
        const previous = clauses[clauses.length - 1] as Clause;
        if (previous.occur !== 'must_not') previous.occur = 'should';
      }
      const prohibited = modifier === 'prohibited';
      const required = andDefault ? !prohibited && conj !== 'or' : modifier === 'required' || (conj === 'and' && !prohibited);
      clauses.push({ occur: prohibited ? 'must_not' : required ? 'must' : 'should', query });
      first = false;
    }
    if (clauses.length === 0) throw new QueryStringError('empty query or group');
    if (clauses.length === 1 && clauses[0]!.occur !== 'must_not') return clauses[0]!.query;
    const pick = (occur: Occur) => clauses.filter((clause) => clause.occur === occur).map((clause) => clause.query);
    return { type: 'bool', must: pick('must'), filter: [], should: pick('should'), must_not: pick('must_not') };
  }

  private parseClause(field: string | undefined, depth: number): QueryNode {
    const token = this.peek();
    if (token === undefined) throw new QueryStringError('the query ends where a clause was expected');
    this.position += 1;
    switch (token.kind) {
      case 'field': {
        if (token.name === '_exists_') {
          const target = this.peek();
          if (target?.kind !== 'term' || hasWildcard(target.raw)) throw new QueryStringError('_exists_ needs a field name: _exists_:field');
          this.position += 1;
          this.checkField(target.text);
          return { type: 'exists', field: target.text };
        }
        this.checkField(token.name);
        const next = this.peek();
        if (next?.kind === 'open') {
          this.position += 1;
          const group = this.parseClauses(token.name, depth + 1);
          this.expectClose();
          return group;
        }
        if (next === undefined || !['term', 'phrase', 'range', 'compare'].includes(next.kind)) {
          throw new QueryStringError(`${token.name}: needs a value`);
        }
        return this.parseClause(token.name, depth);
      }
      case 'open': {
        const group = this.parseClauses(field, depth + 1);
        this.expectClose();
        return group;
      }
      case 'all':
        return { type: 'match_all' };
      case 'term':
        if (token.raw === '*' && field === undefined) return { type: 'match_all' };
        return this.termQuery(this.fieldFor(field, token.text), token.text, token.raw);
      case 'phrase':
        return { type: 'match_phrase', field: this.fieldFor(field, token.text), query: token.text };
      case 'range': {
        const target = this.fieldFor(field, `[${token.lower} TO ${token.upper}]`);
        const node: QueryNode & { type: 'range' } = { type: 'range', field: target };
        if (token.lower !== '*') node[token.includeLower ? 'gte' : 'gt'] = token.lower;
        if (token.upper !== '*') node[token.includeUpper ? 'lte' : 'lt'] = token.upper;
        return node.gte === undefined && node.gt === undefined && node.lte === undefined && node.lt === undefined ? { type: 'exists', field: target } : node;
      }
      case 'compare': {
        const target = this.fieldFor(field, `${token.op}${token.text}`);
        const bound = { '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte' }[token.op] as 'gt' | 'gte' | 'lt' | 'lte';
        return { type: 'range', field: target, [bound]: token.text };
      }
      default:
        throw new QueryStringError(`unexpected ${describe(token)}`);
    }
  }

  private termQuery(field: string, text: string, raw: string): QueryNode {
    if (raw === '*') return { type: 'exists', field };
    if (hasWildcard(raw)) {
      // Keep escaped wildcard characters literal in the wildcard pattern.
      const pattern = raw.replace(/\\(.)/g, (_match, escaped: string) => (escaped === '*' || escaped === '?' || escaped === '\\' ? `\\${escaped}` : escaped));
      const problem = patternProblem('wildcard', pattern);
      if (problem !== undefined) throw new QueryStringError(`${field}: ${problem}`);
      return { type: 'wildcard', field, value: pattern, case_insensitive: false };
    }
    return { type: 'match', field, query: text, operator: this.options.default_operator };
  }

  private fieldFor(field: string | undefined, what: string): string {
    if (field === undefined) throw new QueryStringError(`"${what}" names no field and the query has no default_field`);
    return field;
  }

  private expectClose(): void {
    if (this.peek()?.kind !== 'close') throw new QueryStringError('unbalanced parenthesis: missing ")"');
    this.position += 1;
  }
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'and':
    case 'or':
    case 'not':
      return token.kind.toUpperCase();
    case 'close':
      return '")"';
    default:
      return token.kind;
  }
}

/** True when a term as written holds a `*` or `?` that is not escaped. */
function hasWildcard(raw: string): boolean {
  for (let i = 0; i < raw.length; i += 1) {
    const ch = raw[i];
    if (ch === '\\') i += 1;
    else if (ch === '*' || ch === '?') return true;
  }
  return false;
}

/**
 * Parses a query string into a query tree. `checkField` validates every field it names and throws
 * for one a query may not use. Throws QueryStringError for anything outside the supported forms.
 */
export function parseQueryString(query: string, options: QueryStringOptions, checkField: (field: string) => void = () => undefined): QueryNode {
  const tokens = tokenize(query);
  if (tokens.length === 0) throw new QueryStringError('empty query');
  if (options.default_field !== undefined) checkField(options.default_field);
  return new Parser(tokens, options, checkField).parseAll();
}
