import { StreamRecord, type RecordKind, type StreamItem } from '../../../schemas/stream-record';
import type { ProfileKind, ProfileStore, StoredProfileKind } from '../../profiles/profile-store';
import { mapWithConcurrency } from '../../shared/concurrency';
import type { MetricsSink } from '../../shared/metrics';
import { eventDocument, profileDocument } from '../../search/index-documents';
import { decodeRecord } from '../stream/record-encoding';
import type { IndexDocument, IndexKind, SearchIndex } from '../../search/port';
import type { LateWindowStore } from '../../billing/late-events/late-window-store';
import type { EthAbiCatalog } from '../../ethereum/eth-abi-catalog';
import type { AppStore } from '../../organisations/app-store';
import { withEthFields } from '../../ethereum/eth-fields';
import { withCallerFields, type CallerEnricher } from '../../enrichment';
import type { Archive, ArchiveEntry } from './archive';
import type { DedupStore } from './dedup-store';
import { isPermanentFailure } from './permanent-failure';
import type { Quarantine, QuarantinedRecord } from './quarantine';
import { anonymousOnly, attributeNewlyIdentified, identifyVisitors, withIdentifiedUsers, type VisitorLink } from './visitors';

/** One stream record as the consumer receives it (from the Lambda event or the local poller). */
export interface ConsumerRecord {
  readonly sequenceNumber: string;
  readonly partitionKey?: string;
  readonly data: Buffer;
}

export interface ConsumeResult {
  /** Sequence numbers of records to retry (ReportBatchItemFailures). */
  readonly failedSequenceNumbers: string[];
}

export interface ConsumerDeps {
  readonly dedup: DedupStore;
  readonly profiles: ProfileStore;
  readonly index: SearchIndex;
  readonly archive: Archive;
  readonly quarantine: Quarantine;
  /** Marks the hours that received late events, for billing corrections (after indexing, before acknowledging). */
  readonly lateWindows: Pick<LateWindowStore, 'markLate'>;
  readonly metrics: MetricsSink;
  /** The apps' contract ABIs: Ethereum JSON-RPC calls in API calls are indexed decoded (`eth`). */
  readonly ethAbis?: Pick<EthAbiCatalog, 'lookupFor'>;
  /** The apps' route templates (`/orders/:order_id`), tried before ids are found in paths automatically. */
  readonly routeTemplates?: Pick<AppStore, 'routeTemplatesOf'>;
  /** Adds the caller's country and parsed user agent to API calls and actions (functions/enrichment). */
  readonly callers?: CallerEnricher;
  readonly now?: () => Date;
}

interface EventWork {
  readonly record: ConsumerRecord;
  /** The collector-assigned id of the stream record: owner of the event's dedup claim. */
  readonly recordId: string;
  readonly scope: { org_id: string; app_id: string };
  readonly kind: 'event' | 'action';
  readonly item: StreamItem;
}

interface ProfileWork {
  readonly record: ConsumerRecord;
  readonly recordId: string;
  readonly scope: { org_id: string; app_id: string };
  readonly kind: ProfileKind;
  readonly item: StreamItem;
}

const PROFILE_INDEX: Record<ProfileKind, Exclude<IndexKind, 'events'>> = { user: 'users', company: 'companies', subscription: 'subscriptions' };

/**
 * The ingest consumer. For events: claim (dedup, owned by the carrying record) → index → archive; a
 * failure at any step reports the record failed, and its retry finds its own claim and finishes the
 * event instead of dropping it as a duplicate. For profiles: merge (versioned) → index → archive.
 * Every step is idempotent, so retries and replays never double-count.
 */
export function createConsumer(deps: ConsumerDeps) {
  return async function consume(records: readonly ConsumerRecord[]): Promise<ConsumeResult> {
    const failed = new Set<ConsumerRecord>();
    const { events, profiles, poison } = await parse(records);
    if (poison.length > 0) {
      await deps.quarantine.put(
        'unparseable stream record',
        poison.map((p) => ({ sequenceNumber: p.record.sequenceNumber, partitionKey: p.record.partitionKey, data: p.record.data.toString('base64') })),
        poison.map((p) => p.reason),
      );
    }

    const stored = await storeEvents(deps, events, failed);
    const { merged, visitors } = await storeProfiles(deps, profiles, failed);
    await markLateWindows(deps, stored, failed);

    const archived = [...stored, ...merged.map((m) => m.work), ...visitors].filter((w) => !failed.has(w.record));
    try {
      await deps.archive.write(archived.map((w): ArchiveEntry => ({ ...w.scope, kind: w.kind, item: w.item })));
    } catch {
      archived.forEach((w) => failed.add(w.record));
    }

    deps.metrics({
      Records: records.length,
      StoredEvents: stored.filter((w) => !failed.has(w.record)).length,
      DuplicateEvents: events.length - stored.length,
      MergedProfiles: merged.length + visitors.length,
      FailedRecords: failed.size,
      FailedItems: poison.length,
    });
    return { failedSequenceNumbers: records.filter((r) => failed.has(r)).map((r) => r.sequenceNumber) };
  };
}

async function parse(records: readonly ConsumerRecord[]) {
  const events: EventWork[] = [];
  const profiles: ProfileWork[] = [];
  const poison: { record: ConsumerRecord; reason: string }[] = [];
  for (const record of records) {
    let parsed: StreamRecord;
    try {
      parsed = StreamRecord.parse(JSON.parse(decodeRecord(record.data)));
    } catch (error) {
      poison.push({ record, reason: (error as Error).message.slice(0, 1000) });
      continue;
    }
    const scope = { org_id: parsed.org_id, app_id: parsed.app_id };
    for (const item of parsed.items) {
      if (isEventKind(parsed.kind)) events.push({ record, recordId: parsed.record_id, scope, kind: parsed.kind, item });
      else profiles.push({ record, recordId: parsed.record_id, scope, kind: parsed.kind, item });
    }
  }
  return { events, profiles, poison };
}

/** Returns the events this batch stores (its claimed ones); duplicates are left out. */
async function storeEvents(deps: ConsumerDeps, events: readonly EventWork[], failed: Set<ConsumerRecord>): Promise<EventWork[]> {
  // The same event twice in one batch (a client retry) is one event.
  const unique = new Map<string, EventWork>();
  for (const work of events) {
    const key = `${work.scope.app_id}#${work.item.id}`;
    if (!unique.has(key)) unique.set(key, work);
  }
  const candidates = [...unique.values()];

  // Only caller-supplied transaction ids need a claim: a collector-generated id is unique, and its
  // retries carry the same time, so the index's create-if-absent on the same id already makes them idempotent.
  const needClaim = candidates.filter((w) => typeof w.item.data['transaction_id'] === 'string');
  const claims = await deps.dedup.claim(needClaim.map((w) => ({ appId: w.scope.app_id, eventId: w.item.id, owner: w.recordId })));
  const duplicates = new Set(needClaim.filter((_, i) => claims[i] === 'duplicate'));
  const toStore = candidates.filter((w) => !duplicates.has(w));
  if (toStore.length === 0) return [];

  let documents: IndexDocument[];
  try {
    const patterns = await routePatternsOf(deps, toStore);
    const shaped = toStore.map((w) => eventDocument(w.scope, w.kind, w.item, patterns.get(w.scope.app_id)));
    const built = await withIdentifiedUsers(deps.profiles, deps.callers ? withCallerFields(deps.callers, shaped) : shaped);
    documents = deps.ethAbis ? await withEthFields(deps.ethAbis, built) : built;
  } catch {
    toStore.forEach((w) => failed.add(w.record));
    return toStore;
  }
  await indexAndSettle(deps, documents, toStore, failed);
  const indexed = documents.filter((_, i) => !failed.has(toStore[i]!.record));
  try {
    await attributeNewlyIdentified(deps, indexed);
  } catch {
    // The retry finds the events indexed (create-if-absent) and looks again.
    toStore.forEach((w) => failed.add(w.record));
  }
  return toStore;
}

/** Each app's route templates, read once per batch for the apps whose API calls it holds. */
async function routePatternsOf(deps: ConsumerDeps, events: readonly EventWork[]): Promise<Map<string, readonly string[]>> {
  const patterns = new Map<string, readonly string[]>();
  if (!deps.routeTemplates) return patterns;
  const scopes = new Map(events.filter((w) => w.kind === 'event').map((w) => [w.scope.app_id, w.scope]));
  for (const [appId, scope] of scopes) patterns.set(appId, await deps.routeTemplates.routeTemplatesOf(scope.org_id, appId));
  return patterns;
}

async function storeProfiles(deps: ConsumerDeps, profiles: readonly ProfileWork[], failed: Set<ConsumerRecord>) {
  // Updates of one profile apply in stream order; different profiles merge in parallel.
  const byProfile = new Map<string, ProfileWork[]>();
  for (const work of profiles) {
    const key = `${work.scope.org_id}#${work.scope.app_id}#${storedKind(work)}#${work.item.id}`;
    const list = byProfile.get(key);
    if (list) list.push(work);
    else byProfile.set(key, [work]);
  }
  const merged: { work: ProfileWork; document: IndexDocument }[] = [];
  const visitors: ProfileWork[] = [];
  const identified: { work: ProfileWork; link: VisitorLink }[] = [];
  const refused: { work: ProfileWork; reason: string }[] = [];
  await mapWithConcurrency([...byProfile.values()], 16, async (updates) => {
    for (const work of updates) {
      if (failed.has(work.record)) continue;
      try {
        if (storedKind(work) === 'visitor') {
          // Kept, not indexed: a visitor's activity is searchable by anonymous_id on its events.
          await deps.profiles.merge(work.scope.org_id, work.scope.app_id, 'visitor', work.item.id, work.item.data, work.item.received_at);
          visitors.push(work);
          continue;
        }
        const stored = await deps.profiles.merge(work.scope.org_id, work.scope.app_id, work.kind, work.item.id, work.item.data, work.item.received_at);
        const anonymousId = work.kind === 'user' ? work.item.data['anonymous_id'] : undefined;
        if (typeof anonymousId === 'string' && anonymousId !== '') {
          identified.push({ work, link: { scope: work.scope, anonymousId, userId: work.item.id, at: work.item.received_at } });
        }
        const source = { ...stored.document, created_at: stored.created_at, updated_at: stored.updated_at };
        merged.push({ work, document: profileDocument(work.scope, PROFILE_INDEX[work.kind], work.item.id, source, stored.version, stored.updated_at) });
      } catch (error) {
        if (isPermanentFailure(error)) {
          // It would fail the same way on every retry: kept for replay, and the updates after it go on.
          refused.push({ work, reason: `${(error as Error).name}: ${(error as Error).message}`.slice(0, 1000) });
          continue;
        }
        // A later update of this profile must not overtake a failed one: fail the rest in order too.
        updates.forEach((u) => failed.add(u.record));
        return;
      }
    }
  });
  if (refused.length > 0) {
    await deps.quarantine.put(
      'refused by the profile store',
      refused.map((r) => quarantinedItem(r.work)),
      refused.map((r) => r.reason),
    );
    deps.metrics({ FailedItems: refused.length });
  }
  // Profile indexing is versioned: a stale or repeated version is ignored by the index.
  await indexAndSettle(
    deps,
    merged.map((m) => m.document),
    merged.map((m) => m.work),
    failed,
  );
  // After this batch's events are indexed (storeEvents runs first), so they are attributed too.
  const links = identified.filter((i) => !failed.has(i.work.record));
  try {
    await identifyVisitors(
      deps,
      links.map((i) => i.link),
    );
  } catch {
    links.forEach((i) => failed.add(i.work.record));
  }
  return { merged, visitors };
}

/** Where a profile record is kept: a user record without a user_id is an anonymous visitor. */
function storedKind(work: ProfileWork): StoredProfileKind {
  return work.kind === 'user' && anonymousOnly(work.item.data) !== undefined ? 'visitor' : work.kind;
}

/**
 * Late events change already-billed windows: mark their hours once they are searchable. A failed
 * mark fails the records, whose retry marks again (marks are idempotent; indexing is create-if-absent).
 */
async function markLateWindows(deps: ConsumerDeps, stored: readonly EventWork[], failed: Set<ConsumerRecord>): Promise<void> {
  const indexed = stored.filter((w) => !failed.has(w.record));
  if (indexed.length === 0) return;
  try {
    await deps.lateWindows.markLate(
      indexed.map((w) => ({ ...w.scope, time: w.item.time })),
      (deps.now ?? (() => new Date()))(),
    );
  } catch {
    indexed.forEach((w) => failed.add(w.record));
  }
}

/** Indexes documents (same order as `works`); retryable failures fail their records, permanent ones are quarantined. */
async function indexAndSettle(
  deps: ConsumerDeps,
  documents: readonly IndexDocument[],
  works: readonly (EventWork | ProfileWork)[],
  failed: Set<ConsumerRecord>,
): Promise<void> {
  if (documents.length === 0) return;
  const outcome = await deps.index.index(documents);
  if (outcome.failures.length === 0) return;
  // Failures name (kind, id); the same id in two tenants of one batch fails both, which only widens a safe retry.
  const positions = new Map<string, number[]>();
  documents.forEach((d, i) => positions.set(`${d.kind}#${d.id}`, [...(positions.get(`${d.kind}#${d.id}`) ?? []), i]));
  const permanent: { work: EventWork | ProfileWork; reason: string }[] = [];
  for (const failure of outcome.failures) {
    for (const i of positions.get(`${failure.kind}#${failure.id}`) ?? []) {
      const work = works[i]!;
      if (failure.retryable) failed.add(work.record);
      else permanent.push({ work, reason: failure.reason });
    }
  }
  if (permanent.length > 0) {
    await deps.quarantine.put(
      'refused by the search index',
      permanent.map((p) => quarantinedItem(p.work)),
      permanent.map((p) => p.reason),
    );
    deps.metrics({ FailedItems: permanent.length });
  }
}

/**
 * One item of a record, kept as a stream record of its own with the original record id: replayed
 * onto the stream as it is, an event then finishes its own dedup claim instead of counting as a duplicate.
 */
function quarantinedItem(work: EventWork | ProfileWork): QuarantinedRecord {
  const record: StreamRecord = { v: 1, record_id: work.recordId, ...work.scope, kind: work.kind, items: [work.item] };
  return { sequenceNumber: work.record.sequenceNumber, partitionKey: work.record.partitionKey, data: Buffer.from(JSON.stringify(record)).toString('base64') };
}

function isEventKind(kind: RecordKind): kind is 'event' | 'action' {
  return kind === 'event' || kind === 'action';
}
