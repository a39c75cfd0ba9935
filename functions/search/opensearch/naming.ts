import type { ProfileKind } from '../index-documents';
import type { IndexDocument, IndexKind } from '../port';

/**
 * Where documents live in OpenSearch. Events go to monthly indices by event time
 * (`<prefix>events-YYYY.MM`, all joined to the `<prefix>events` alias), so old months can be
 * dropped whole; profiles go to one index per kind. Indices are shared by every tenant, so a
 * document's `_id` carries its app: `${app_id}:${id}`.
 */

// OpenSearch index names: lowercase, none of these characters, not starting with - _ +.
const VALID_PREFIX = /^(?![-_+.])[^A-Z\\/*?"<>| ,#:]*$/;

export function assertValidIndexPrefix(prefix: string): void {
  if (!VALID_PREFIX.test(prefix)) {
    throw new Error(`invalid OpenSearch index prefix "${prefix}": use lowercase letters, digits, "-" or "_", not first`);
  }
}

export function eventsIndexName(prefix: string, time: string | Date): string {
  const date = typeof time === 'string' ? new Date(time) : time;
  const month = String(date.getUTCMonth() + 1).padStart(2, '0');
  return `${prefix}events-${date.getUTCFullYear()}.${month}`;
}

export const eventsIndexPattern = (prefix: string): string => `${prefix}events-*`;
export const eventsAlias = (prefix: string): string => `${prefix}events`;
export const profileIndexName = (prefix: string, kind: ProfileKind): string => `${prefix}${kind}`;
export const PROFILE_KINDS: readonly ProfileKind[] = ['users', 'companies', 'subscriptions'];

export function indexNameFor(prefix: string, document: IndexDocument): string {
  return document.kind === 'events' ? eventsIndexName(prefix, document.time) : profileIndexName(prefix, document.kind);
}

/** Where a read of one kind looks: every monthly events index, or the profile index. */
export function readTarget(prefix: string, kind: IndexKind): string {
  return kind === 'events' ? eventsIndexPattern(prefix) : profileIndexName(prefix, kind);
}

/** Every index of the port, for refresh. */
export function allIndices(prefix: string): string[] {
  return [eventsIndexPattern(prefix), ...PROFILE_KINDS.map((kind) => profileIndexName(prefix, kind))];
}

export const documentId = (appId: string, id: string): string => `${appId}:${id}`;
