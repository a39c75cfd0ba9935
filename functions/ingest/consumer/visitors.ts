import type { ProfileStore } from '../../profiles/profile-store';
import { mapWithConcurrency } from '../../shared/concurrency';
import type { IndexDocument, SearchIndex, TenantScope } from '../../search/port';

/**
 * Anonymous visitors: moesif-browser-js sends `anonymous_id` (no user_id) on the visitor's profile,
 * API calls and actions until the app identifies the visitor; then it sends a user profile with
 * both ids. The visitor is kept in the profiles table (kind `visitor`); once identified it holds
 * the user_id, and the visitor's events are the user's:
 * - events indexed later are given the user_id before indexing (`withIdentifiedUsers`);
 * - events indexed earlier are updated in the index (`identifyVisitors`);
 * - an event indexed while its visitor was being identified is caught by a second look after
 *   indexing (`attributeNewlyIdentified`): each side writes first and reads the other after, so
 *   at least one of them sees both.
 * Only user_id is set: company and subscription attribution, which billing reads, is never changed.
 */

export interface VisitorDeps {
  readonly profiles: Pick<ProfileStore, 'get' | 'merge'>;
  readonly index: Pick<SearchIndex, 'attributeVisitor'>;
}

export interface VisitorLink {
  readonly scope: TenantScope;
  readonly anonymousId: string;
  readonly userId: string;
  readonly at: string;
}

const CONCURRENCY = 8;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The anonymous id of an event or profile that names no user, else undefined. */
export function anonymousOnly(data: Readonly<Record<string, unknown>>): string | undefined {
  return text(data['user_id']) === undefined ? text(data['anonymous_id']) : undefined;
}

const key = (scope: TenantScope, anonymousId: string) => `${scope.org_id}\n${scope.app_id}\n${anonymousId}`;

/** The user each identified visitor among these documents became (keyed by tenant and anonymous id). */
async function identifiedUsers(profiles: VisitorDeps['profiles'], documents: readonly IndexDocument[]): Promise<Map<string, string>> {
  const wanted = new Map<string, { scope: TenantScope; anonymousId: string }>();
  for (const document of documents) {
    const anonymousId = anonymousOnly(document.source);
    if (anonymousId !== undefined) wanted.set(key(document, anonymousId), { scope: { org_id: document.org_id, app_id: document.app_id }, anonymousId });
  }
  const users = new Map<string, string>();
  await mapWithConcurrency([...wanted.entries()], CONCURRENCY, async ([visitorKey, { scope, anonymousId }]) => {
    const visitor = await profiles.get(scope.org_id, scope.app_id, 'visitor', anonymousId);
    const userId = text(visitor?.document['user_id']);
    if (userId !== undefined) users.set(visitorKey, userId);
  });
  return users;
}

/** The documents, those of identified visitors carrying their user's id. */
export async function withIdentifiedUsers(profiles: VisitorDeps['profiles'], documents: readonly IndexDocument[]): Promise<IndexDocument[]> {
  const users = await identifiedUsers(profiles, documents);
  if (users.size === 0) return [...documents];
  return documents.map((document) => {
    const anonymousId = anonymousOnly(document.source);
    const userId = anonymousId === undefined ? undefined : users.get(key(document, anonymousId));
    return userId === undefined ? document : { ...document, source: { ...document.source, user_id: userId } };
  });
}

/** After indexing: visitors identified meanwhile get their just-indexed events attributed. */
export async function attributeNewlyIdentified(deps: VisitorDeps, indexed: readonly IndexDocument[]): Promise<void> {
  const users = await identifiedUsers(deps.profiles, indexed);
  await mapWithConcurrency([...users.entries()], CONCURRENCY, async ([visitorKey, userId]) => {
    const [org_id, app_id, anonymousId] = visitorKey.split('\n') as [string, string, string];
    await deps.index.attributeVisitor({ org_id, app_id }, anonymousId, userId);
  });
}

/** Users that name an anonymous id: the visitor records its user, then its earlier events become the user's. */
export async function identifyVisitors(deps: VisitorDeps, links: readonly VisitorLink[]): Promise<void> {
  await mapWithConcurrency(links, CONCURRENCY, async (link) => {
    const { scope, anonymousId, userId } = link;
    await deps.profiles.merge(
      scope.org_id,
      scope.app_id,
      'visitor',
      anonymousId,
      { anonymous_id: anonymousId, user_id: userId, identified_at: link.at },
      link.at,
    );
    await deps.index.attributeVisitor(scope, anonymousId, userId);
  });
}
