/**
 * Whether a JavaScript regular expression can backtrack catastrophically. Governance rules are run
 * by the SDKs inside the customer's API server, with backtracking engines: a rule that takes
 * exponential time on some request would hang that server. Refused, each with its reason:
 * - a repeated part that itself repeats a variable number of times, `(x+x+)+`, `(a*)*`;
 * - an alternation under a repetition whose branches can start with the same character, or match
 *   nothing, `(a|ab)*`, `(\w|\d)+`, `(a|)+`;
 * - backreferences and lookarounds, which no linear-time engine can run.
 * Repetitions side by side (`.*foo.*`) stay allowed: at worst polynomial in a request field's length.
 */

type CharTest = (code: number) => boolean;

type Node =
  | { kind: 'char'; test: CharTest }
  | { kind: 'empty' }
  | { kind: 'sequence'; items: Node[] }
  | { kind: 'alternation'; branches: Node[] }
  | { kind: 'repeat'; body: Node; min: number; max: number };

class Unsafe extends Error {}

/** Why the pattern may backtrack catastrophically, or undefined when it cannot. The pattern must compile. */
export function regexBacktrackingProblem(pattern: string): string | undefined {
  try {
    check(new RegexReader(pattern).parse());
    return undefined;
  } catch (error) {
    if (error instanceof Unsafe) return error.message;
    throw error;
  }
}

function check(node: Node): void {
  if (node.kind === 'sequence') node.items.forEach(check);
  else if (node.kind === 'alternation') node.branches.forEach(check);
  else if (node.kind === 'repeat') {
    if (node.max > 1) {
      if (hasVariableRepeat(node.body))
        throw new Unsafe('nests a variable repetition inside another repetition (such as (a+)+), which backtracks exponentially');
      const branches = topBranches(node.body);
      if (branches.length > 1) {
        if (branches.some(canBeEmpty))
          throw new Unsafe('repeats an alternation with a branch that can match nothing (such as (a|)*), which backtracks exponentially');
        const firsts = branches.map(firstChars);
        for (let i = 0; i < firsts.length; i += 1) {
          for (let j = i + 1; j < firsts.length; j += 1) {
            if (overlap(firsts[i] as CharTest[], firsts[j] as CharTest[]))
              throw new Unsafe('repeats an alternation whose branches can start with the same character (such as (a|ab)*), which backtracks exponentially');
          }
        }
      }
    }
    check(node.body);
  }
}

function hasVariableRepeat(node: Node): boolean {
  switch (node.kind) {
    case 'repeat':
      return node.min !== node.max || hasVariableRepeat(node.body);
    case 'sequence':
      return node.items.some(hasVariableRepeat);
    case 'alternation':
      return node.branches.some(hasVariableRepeat);
    default:
      return false;
  }
}

function topBranches(node: Node): Node[] {
  if (node.kind === 'alternation') return node.branches;
  if (node.kind === 'sequence' && node.items.length === 1) return topBranches(node.items[0] as Node);
  return [node];
}

function canBeEmpty(node: Node): boolean {
  switch (node.kind) {
    case 'empty':
      return true;
    case 'char':
      return false;
    case 'repeat':
      return node.min === 0 || canBeEmpty(node.body);
    case 'sequence':
      return node.items.every(canBeEmpty);
    case 'alternation':
      return node.branches.some(canBeEmpty);
  }
}

/** The tests of the characters a node can start with. */
function firstChars(node: Node): CharTest[] {
  switch (node.kind) {
    case 'empty':
      return [];
    case 'char':
      return [node.test];
    case 'repeat':
      return firstChars(node.body);
    case 'alternation':
      return node.branches.flatMap(firstChars);
    case 'sequence': {
      const tests: CharTest[] = [];
      for (const item of node.items) {
        tests.push(...firstChars(item));
        if (!canBeEmpty(item)) break;
      }
      return tests;
    }
  }
}

/** Latin, the common symbols and a sample beyond: enough to tell whether two character sets share one. */
const SAMPLE_CODES = [...Array.from({ length: 0x250 }, (_, i) => i), 0x3b1, 0x430, 0x4e00, 0x2028, 0xfeff, 0x1f600];

function overlap(a: readonly CharTest[], b: readonly CharTest[]): boolean {
  return SAMPLE_CODES.some((code) => a.some((test) => test(code)) && b.some((test) => test(code)));
}

const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const isWord: CharTest = (c) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpace: CharTest = (c) => /\s/u.test(String.fromCodePoint(c));
const any: CharTest = () => true;

/** A reader of JavaScript regex syntax, enough to see its structure (the pattern is known to compile). */
class RegexReader {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternation();
    return node;
  }

  private alternation(): Node {
    const branches = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at += 1;
      branches.push(this.sequence());
    }
    return branches.length === 1 ? (branches[0] as Node) : { kind: 'alternation', branches };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const atom = this.atom();
      if (atom !== undefined) items.push(this.quantified(atom));
    }
    return items.length === 0 ? { kind: 'empty' } : { kind: 'sequence', items };
  }

  private quantified(atom: Node): Node {
    const rest = this.source.slice(this.at);
    const match = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})\??/.exec(rest);
    if (!match) return atom;
    this.at += match[0].length;
    let min: number;
    let max: number;
    if (match[1] === '*') [min, max] = [0, Infinity];
    else if (match[1] === '+') [min, max] = [1, Infinity];
    else if (match[1] === '?') [min, max] = [0, 1];
    else {
      min = Number(match[2]);
      max = match[3] === undefined ? min : match[4] === '' ? Infinity : Number(match[4]);
    }
    return this.quantified({ kind: 'repeat', body: atom, min, max });
  }

  /** One atom; undefined for what matches no character (anchors, word boundaries). */
  private atom(): Node | undefined {
    const ch = this.source[this.at] as string;
    if (ch === '^' || ch === '$') {
      this.at += 1;
      return undefined;
    }
    if (ch === '.') {
      this.at += 1;
      return { kind: 'char', test: any };
    }
    if (ch === '[') return { kind: 'char', test: this.charClass() };
    if (ch === '(') return this.group();
    if (ch === '\\') return this.escape(false);
    this.at += ch.length;
    const code = this.source.codePointAt(this.at - 1) as number;
    return { kind: 'char', test: (c) => c === code };
  }

  private group(): Node {
    const head = /^\((\?(?::|<[A-Za-z_$][\w$]*>|[=!]|<[=!]))?/.exec(this.source.slice(this.at))?.[0] ?? '(';
    if (/^\(\?(?:[=!]|<[=!])/.test(head)) throw new Unsafe('uses a lookaround, which SDKs cannot match in linear time');
    this.at += head.length;
    const body = this.alternation();
    this.at += 1; // ')'
    return body;
  }

  private escape(inClass: boolean): Node | undefined {
    const next = this.source[this.at + 1] as string;
    this.at += 2;
    const simple: Record<string, CharTest> = {
      d: isDigit,
      D: (c) => !isDigit(c),
      w: isWord,
      W: (c) => !isWord(c),
      s: isSpace,
      S: (c) => !isSpace(c),
    };
    if (simple[next]) return { kind: 'char', test: simple[next] as CharTest };
    if (!inClass && (next === 'b' || next === 'B')) return undefined;
    if (!inClass && (/[1-9]/.test(next) || (next === 'k' && this.source[this.at] === '<')))
      throw new Unsafe('uses a backreference, which SDKs cannot match in linear time');
    if (next === 'p' || next === 'P') {
      const end = this.source.indexOf('}', this.at);
      const property = new RegExp(`\\${next}${this.source.slice(this.at, end + 1)}`, 'u');
      this.at = end + 1;
      return { kind: 'char', test: (c) => property.test(String.fromCodePoint(c)) };
    }
    const code = this.escapedCode(next);
    return { kind: 'char', test: (c) => c === code };
  }

  /** The character of an escape other than a class (\n, \x41, \u0041, \u{1F600}, \cJ, \0, \.). */
  private escapedCode(next: string): number {
    const controls: Record<string, number> = { n: 10, r: 13, t: 9, v: 11, f: 12, '0': 0 };
    if (controls[next] !== undefined) return controls[next] as number;
    const hex = (length: number) => {
      const code = Number.parseInt(this.source.slice(this.at, this.at + length), 16);
      this.at += length;
      return code;
    };
    if (next === 'x') return hex(2);
    if (next === 'u') {
      if (this.source[this.at] === '{') {
        const end = this.source.indexOf('}', this.at);
        const code = Number.parseInt(this.source.slice(this.at + 1, end), 16);
        this.at = end + 1;
        return code;
      }
      return hex(4);
    }
    if (next === 'c') {
      this.at += 1;
      return (this.source.codePointAt(this.at - 1) as number) % 32;
    }
    return next.codePointAt(0) as number;
  }

  private charClass(): CharTest {
    this.at += 1;
    const negated = this.source[this.at] === '^';
    if (negated) this.at += 1;
    const tests: CharTest[] = [];
    // In JavaScript `[]` is empty and `]` always closes the class.
    while (this.at < this.source.length && this.source[this.at] !== ']') {
      const low = this.classMember();
      if (this.source[this.at] === '-' && this.source[this.at + 1] !== ']' && typeof low === 'number') {
        this.at += 1;
        const high = this.classMember();
        if (typeof high === 'number') {
          tests.push((c) => c >= low && c <= high);
          continue;
        }
        tests.push((c) => c === low || c === 45, high);
        continue;
      }
      tests.push(typeof low === 'number' ? (c) => c === low : low);
    }
    this.at += 1; // ']'
    const member: CharTest = (c) => tests.some((test) => test(c));
    return negated ? (c) => !member(c) : member;
  }

  /** One member of a class: a character's code, or the test of an escaped class (\d, \w, \p{…}). */
  private classMember(): number | CharTest {
    const ch = this.source[this.at] as string;
    if (ch !== '\\') {
      const code = this.source.codePointAt(this.at) as number;
      this.at += code > 0xffff ? 2 : 1;
      return code;
    }
    const next = this.source[this.at + 1] as string;
    if ('dDwWsSpP'.includes(next)) return (this.escape(true) as { test: CharTest }).test;
    this.at += 2;
    if (next === 'b') return 8;
    return this.escapedCode(next);
  }
}
