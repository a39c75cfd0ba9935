import { LONG_NOTE, TEXTS } from '../fixtures';
import type { ConformanceCase, HitsExpectation } from '../types';

/**
 * Text fields (standard analyzer: lower-cased, split on what is not a letter or digit) against
 * their `.raw` keyword form, over TEXTS (see fixtures.ts; default order t7 … t1).
 */

const onTexts = (name: string, query: unknown, expected: HitsExpectation): ConformanceCase => ({
  name,
  area: 'text',
  documents: TEXTS,
  body: { query },
  expect: expected,
});

const found = (...ids: string[]): HitsExpectation => ({ total: ids.length, ids });

export const TEXT_CASES: readonly ConformanceCase[] = [
  onTexts('match is case-insensitive on text', { match: { 'metadata.note': 'QUICK' } }, found('t2', 't1')),
  onTexts('match or: a document with any of the words', { match: { 'metadata.note': 'brown fox' } }, found('t4', 't3', 't1')),
  onTexts('match and: a document with all of the words', { match: { 'metadata.note': { query: 'brown fox', operator: 'and' } } }, found('t1')),
  onTexts('match analyses punctuation out of the query', { match: { 'metadata.note': { query: 'dog, QUICK!', operator: 'and' } } }, found('t2')),
  onTexts('match_phrase needs the words adjacent', { match_phrase: { 'metadata.note': 'brown fox' } }, found('t1')),
  onTexts('a hyphen separates tokens, so a phrase spans it', { match_phrase: { 'metadata.note': 'fox trot' } }, found('t4')),
  onTexts('digits form tokens', { match: { 'metadata.note': '2026' } }, found('t4')),
  onTexts('term needs the exact token: upper case never matches', { term: { 'metadata.note': 'Quick' } }, found()),
  onTexts('term on a lower-case token matches', { term: { 'metadata.note': 'quick' } }, found('t2', 't1')),
  onTexts('.raw holds the value exactly as sent', { term: { 'metadata.note.raw': 'BROWN bear' } }, found('t3')),
  onTexts('letters with accents are lower-cased, not folded', { match: { 'metadata.note': { query: 'MÜNSTER café', operator: 'and' } } }, found('t6')),
  onTexts('an unaccented spelling does not match an accented token', { match: { 'metadata.note': 'cafe' } }, found()),
  onTexts('prefix on a text field matches the start of a token', { prefix: { 'metadata.note': 'bro' } }, found('t3', 't1')),
  onTexts('wildcard on a text field matches a whole token', { wildcard: { 'metadata.note': '*ox' } }, found('t4', 't1')),
  onTexts('a value over 1024 characters is not in .raw', { term: { 'metadata.note.raw': LONG_NOTE } }, found()),
  onTexts('exists on .raw skips values over 1024 characters', { exists: { field: 'metadata.note.raw' } }, found('t6', 't4', 't3', 't2', 't1')),
  onTexts('a value over 1024 characters is still searchable as text', { match: { 'metadata.note': 'word' } }, found('t7')),
  onTexts('headers are text fields', { match: { 'request.headers.content-type': 'JSON' } }, found('t1')),
  onTexts('match_phrase across punctuation in a header', { match_phrase: { 'request.headers.content-type': 'html charset' } }, found('t2')),
];
