import type { API } from '@opensearch-project/opensearch';
import type { ProfileKind } from '../index-documents';
import { eventsAlias, eventsIndexPattern, PROFILE_KINDS, profileIndexName } from './naming';
import { INDEX_META_FIELD } from './stored-source';

/**
 * Index templates: one component template every index shares (tenant keys, string handling,
 * the unparsed body store), then a composable template per kind. Templates apply when an index
 * is created, so monthly events indices pick them up as the first document of a month arrives.
 */

export interface ComponentTemplate {
  readonly name: string;
  readonly body: API.Cluster_PutComponentTemplate_RequestBody;
}

export interface IndexTemplate {
  readonly name: string;
  readonly body: API.Indices_PutIndexTemplate_RequestBody;
}

/** Above the 1024 of `.raw`, a string is kept in `_source` but not in the keyword index. */
const RAW_KEYWORD = { raw: { type: 'keyword', ignore_above: 1024 } } as const;
/**
 * Identifiers and enums (see fields.ts): exact. Queries written for text fields name `.raw`, which
 * reads the field itself (stored-source.ts KEYWORD_PATHS and mappedField name these fields again);
 * indices made before kept a `.raw` copy.
 */
const KEYWORD = { type: 'keyword' } as const;
/**
 * An id every event has its own of: kept only as doc values (sorts, aggregations; a term query reads
 * them, about 40 ms a million events), not in the term dictionary, where each cost 28 bytes an event
 * at 1 M. A term on `_id` asks the indexed `_id` instead (query-body.ts).
 */
const UNIQUE_KEYWORD = { type: 'keyword', index: false } as const;
const date = { type: 'date' } as const;

export const commonTemplateName = (prefix: string): string => `${prefix}search-common`;

/**
 * `replicas`: copies of each shard. A domain of one data node cannot place any (its indices would
 * stay yellow), so the stack passes 0 for one node and 1 for more (OPENSEARCH_REPLICAS).
 */
export function commonComponentTemplate(prefix: string, replicas = 1): ComponentTemplate {
  return {
    name: commonTemplateName(prefix),
    body: {
      template: {
        settings: {
          'index.number_of_replicas': replicas,
          // A value that does not fit its field's type (a word in a date field) is skipped, not the document.
          'index.mapping.ignore_malformed': true,
          // Free-form metadata and bodies of every tenant share these indices.
          'index.mapping.total_fields.limit': 5000,
          // DEFLATE instead of LZ4 for stored documents: 136 bytes an event instead of 278 on the bench's
          // data; reading a page of hits decompresses only its documents' blocks.
          'index.codec': 'best_compression',
        },
        mappings: {
          dynamic: true,
          // Dates are mapped by name below: guessing from content would let one odd value fix a type.
          date_detection: false,
          numeric_detection: false,
          // The field typing of fields.ts: names decide for ids and dates, the JSON type for the rest.
          dynamic_templates: [
            { ids: { match_mapping_type: 'string', match: '*_id', mapping: KEYWORD } },
            { dates: { match_mapping_type: 'string', match_pattern: 'regex', match: '^.*(_at|_time)$', mapping: date } },
            // No norms: they serve relevance scoring, and every search here is a filter sorted by fields.
            { strings: { match_mapping_type: 'string', mapping: { type: 'text', norms: false, fields: RAW_KEYWORD } } },
            { decimals: { match_mapping_type: 'double', mapping: { type: 'double' } } },
          ],
          properties: {
            org_id: KEYWORD,
            app_id: KEYWORD,
            direction: KEYWORD,
            session_token: KEYWORD,
            transaction_id: UNIQUE_KEYWORD,
            [INDEX_META_FIELD]: {
              properties: {
                time: date,
                // The document's own id, sortable (OpenSearch's `_id` is not): the `_id` sort key and tie-breaker.
                doc_id: UNIQUE_KEYWORD,
                // Stored in _source, never parsed: holds bodies that are not JSON objects (see stored-source.ts).
                bodies: { type: 'object', enabled: false },
              },
            },
          },
        },
      },
    },
  };
}

// created_at / updated_at are the service's own timestamps on every stored profile; the rest come from the SDKs.
const PROFILE_DATES = { created_at: date, updated_at: date, modified_time: date };
type MappedProperties = NonNullable<NonNullable<API.Indices_PutIndexTemplate_RequestBody['template']>['mappings']>['properties'];
const PROFILE_PROPERTIES: Record<ProfileKind, MappedProperties> = {
  users: PROFILE_DATES,
  companies: PROFILE_DATES,
  subscriptions: { ...PROFILE_DATES, current_period_start: date, current_period_end: date, items: { properties: { created_at: date } } },
};

export function indexTemplates(prefix: string): IndexTemplate[] {
  const composedOf = [commonTemplateName(prefix)];
  const events: IndexTemplate = {
    name: `${prefix}search-events`,
    body: {
      index_patterns: [eventsIndexPattern(prefix)],
      priority: 100,
      composed_of: composedOf,
      template: {
        aliases: { [eventsAlias(prefix)]: {} },
        mappings: {
          properties: {
            event_type: KEYWORD,
            is_late: { type: 'boolean' },
            received_at: date,
            duration_ms: { type: 'long' },
            weight: { type: 'long' },
            // The caller's geography and client (functions/enrichment) are objects in every tenant's
            // documents: mapped as such up front, so no tenant's odd scalar there can claim the path first.
            request: {
              properties: { time: date, verb: KEYWORD, body_truncated: { type: 'boolean' }, geo_ip: { type: 'object' }, user_agent: { type: 'object' } },
            },
            response: { properties: { time: date, status: { type: 'integer' }, body_truncated: { type: 'boolean' } } },
          },
        },
      },
    },
  };
  const profiles = PROFILE_KINDS.map(
    (kind): IndexTemplate => ({
      name: `${prefix}search-${kind}`,
      body: {
        index_patterns: [profileIndexName(prefix, kind)],
        priority: 100,
        composed_of: composedOf,
        template: {
          mappings: { properties: PROFILE_PROPERTIES[kind] },
        },
      },
    }),
  );
  return [events, ...profiles];
}
