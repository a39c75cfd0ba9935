import type { QueryNode } from '../../../schemas/search-tree';
import { ValidationError } from '../../shared/errors';
import { parseQueryString } from '../query-string';
import { wildcardMatcher } from '../wildcard-patterns';

/**
 * Virtual event types at query time: a query on the field `virtual_event_types` becomes the stored
 * criteria of the types it names, so a type applies to every event, past ones included, and the
 * backends never see the field. Both backends therefore answer alike by construction.
 */

/** The field searches name; `.raw` is accepted too, as for any keyword. */
export const VIRTUAL_EVENT_TYPES_FIELD = 'virtual_event_types';

/** A type as queries use it: its name and the parsed events query of its criteria. */
export interface VirtualEventTypeDefinition {
  readonly name: string;
  readonly query: QueryNode;
}

export function isVirtualEventTypesField(field: string): boolean {
  return field === VIRTUAL_EVENT_TYPES_FIELD || field === `${VIRTUAL_EVENT_TYPES_FIELD}.raw`;
}

/** Distinct type names, each with the query of its events (types sharing a name are one type, either criteria matching). */
export function typesByName(types: readonly VirtualEventTypeDefinition[]): Map<string, QueryNode> {
  const grouped = new Map<string, QueryNode[]>();
  for (const type of types) grouped.set(type.name, [...(grouped.get(type.name) ?? []), type.query]);
  return new Map([...grouped].map(([name, queries]) => [name, anyOf(queries)]));
}

/** Matches what any of the queries matches (match_none for none). */
export function anyOf(queries: readonly QueryNode[]): QueryNode {
  if (queries.length === 0) return { type: 'match_none' };
  if (queries.length === 1) return queries[0]!;
  return { type: 'bool', must: [], filter: [], should: [...queries], must_not: [], minimum_should_match: 1 };
}

/** True when the query names the field anywhere (so the app's types must be loaded). */
export function queryMentions(node: QueryNode): boolean {
  switch (node.type) {
    case 'bool':
      return [...node.must, ...node.filter, ...node.should, ...node.must_not].some(queryMentions);
    case 'term':
    case 'terms':
    case 'range':
    case 'exists':
    case 'match':
    case 'match_phrase':
    case 'prefix':
    case 'wildcard':
      return isVirtualEventTypesField(node.field);
    case 'query_string':
      return (node.default_field !== undefined && isVirtualEventTypesField(node.default_field)) || queryMentions(parseQueryString(node.query, node));
    default:
      return false;
  }
}

/**
 * The query with every clause on `virtual_event_types` replaced by the criteria of the types it
 * selects: term/match (a name; `case_insensitive` honoured), terms (any of the names), prefix and
 * wildcard (names matching the pattern), exists (any type). Other clauses on the field are a 400
 * naming the member under `path` ('' when the query is the body itself): a range over names means nothing.
 */
export function expandQuery(node: QueryNode, types: ReadonlyMap<string, QueryNode>, path = 'query'): QueryNode {
  const matching = (accept: (name: string) => boolean): QueryNode => anyOf([...types].filter(([name]) => accept(name)).map(([, query]) => query));
  switch (node.type) {
    case 'bool': {
      const list = (clauses: QueryNode[], member: string) => clauses.map((clause, i) => expandQuery(clause, types, memberOf(path, `bool.${member}[${i}]`)));
      return {
        ...node,
        must: list(node.must, 'must'),
        filter: list(node.filter, 'filter'),
        should: list(node.should, 'should'),
        must_not: list(node.must_not, 'must_not'),
      };
    }
    case 'term':
      if (!isVirtualEventTypesField(node.field)) return node;
      return matching(node.case_insensitive ? (name) => name.toLowerCase() === String(node.value).toLowerCase() : (name) => name === node.value);
    case 'match':
    case 'match_phrase':
      if (!isVirtualEventTypesField(node.field)) return node;
      return matching((name) => name === String(node.query));
    case 'terms': {
      if (!isVirtualEventTypesField(node.field)) return node;
      const wanted = new Set(node.values.map(String));
      return matching((name) => wanted.has(name));
    }
    case 'prefix': {
      if (!isVirtualEventTypesField(node.field)) return node;
      const fold = (text: string) => (node.case_insensitive ? text.toLowerCase() : text);
      return matching((name) => fold(name).startsWith(fold(node.value)));
    }
    case 'wildcard': {
      if (!isVirtualEventTypesField(node.field)) return node;
      const matches = wildcardMatcher(node.value, node.case_insensitive);
      return matching(matches);
    }
    case 'exists':
      return isVirtualEventTypesField(node.field) ? matching(() => true) : node;
    case 'range':
      if (isVirtualEventTypesField(node.field)) throw refused(memberOf(path, `range.${node.field}`), 'range');
      return node;
    case 'query_string': {
      if (node.default_field !== undefined && isVirtualEventTypesField(node.default_field))
        throw refused(memberOf(path, 'query_string.default_field'), 'a query_string default_field');
      // The query bar and the console's filters write query_string: it names types as the DSL does
      // (virtual_event_types:"Signed Up", virtual_event_types:Sign*, _exists_:virtual_event_types).
      const parsed = parseQueryString(node.query, node);
      return queryMentions(parsed) ? expandQuery(parsed, types, memberOf(path, 'query_string')) : node;
    }
    default:
      return node;
  }
}

/** A member path under `path` ('' for the body itself). */
const memberOf = (path: string, member: string) => (path === '' ? member : `${path}.${member}`);

function refused(field: string, kind: string): ValidationError {
  const reason = `${VIRTUAL_EVENT_TYPES_FIELD} takes term, terms, match, prefix, wildcard and exists queries, not ${kind}`;
  return new ValidationError(`Invalid ${field}: ${reason}`, [{ field, reason }]);
}
