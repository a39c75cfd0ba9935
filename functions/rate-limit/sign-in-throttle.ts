import { createHash } from 'node:crypto';
import { DeleteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGet } from '../shared/aws/batch-get';

/**
 * Password sign-in throttling as OWASP's authentication guidance describes it: failures are
 * counted per account and source address together, per source address, and per account, each
 * within a window, and past a few free failures each further attempt waits a delay that doubles
 * with every failure. A failing source slows itself down; an account under attack slows only the
 * sources that have failed on it, so its owner, signing in from a source that has not been
 * failing, is never locked out by someone else's guesses (one counter per org did exactly that).
 */

/** One password attempt: whose account, and from where (API Gateway's sourceIp; locally the socket's address). */
export interface SignInAttempt {
  readonly orgId: string;
  readonly username: string;
  readonly source: string;
}

export interface SignInThrottlePolicy {
  /** Failures are counted in fixed windows of this length; a check adds up the current and the previous one. */
  readonly windowMs: number;
  /** Free failures of one account from one source, before delays start. */
  readonly accountSourceFree: number;
  /** Free failures from one source, on any accounts. */
  readonly sourceFree: number;
  /** Free failures of one account from all sources, before the sources failing on it are slowed. */
  readonly accountFree: number;
  /** The first delay past the free failures; each further failure doubles it, up to maxDelayMs. */
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_SIGN_IN_POLICY: SignInThrottlePolicy = {
  windowMs: 15 * 60_000,
  accountSourceFree: 5,
  sourceFree: 20,
  accountFree: 50,
  firstDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
};

/** Failures of one counter in the current window, and when the last one was. */
export interface FailureCount {
  readonly failures: number;
  readonly lastFailureMs: number;
}

/** Where failure counters live (the resources table on AWS and locally). */
export interface FailureCounters {
  read(keys: readonly string[], window: string): Promise<Map<string, FailureCount>>;
  add(keys: readonly string[], window: string, atMs: number, expiresAtMs: number): Promise<void>;
  clear(key: string, window: string): Promise<void>;
}

export class SignInThrottle {
  constructor(
    private readonly counters: FailureCounters,
    private readonly policy: SignInThrottlePolicy = DEFAULT_SIGN_IN_POLICY,
    private readonly now: () => number = Date.now,
  ) {}

  /** How long the attempt must wait before it may be tried (ms), or 0 when it may go ahead now. */
  async waitMs(attempt: SignInAttempt): Promise<number> {
    const at = this.now();
    const keys = keysOf(attempt);
    const counts = await this.recentCounts([keys.accountSource, keys.source, keys.account], at);
    const pair = counts.get(keys.accountSource);
    const limits: [FailureCount | undefined, number][] = [
      [pair, this.policy.accountSourceFree],
      [counts.get(keys.source), this.policy.sourceFree],
      // An account under attack slows the sources failing on it, never one that has not failed.
      [pair === undefined ? undefined : counts.get(keys.account), this.policy.accountFree],
    ];
    return Math.max(0, ...limits.map(([count, free]) => (count === undefined ? 0 : count.lastFailureMs + this.delayMs(count.failures, free) - at)));
  }

  /** A wrong password (or unknown user): counted against the account, the source and both together. */
  async failed(attempt: SignInAttempt): Promise<void> {
    const at = this.now();
    const keys = keysOf(attempt);
    const window = this.windowOf(at);
    await this.counters.add([keys.accountSource, keys.source, keys.account], window, at, this.windowStart(at) + 2 * this.policy.windowMs);
  }

  /** A correct password: the failures of this account from this source are forgiven. */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    const at = this.now();
    const key = keysOf(attempt).accountSource;
    await Promise.all([this.counters.clear(key, this.windowOf(at)), this.counters.clear(key, this.windowOf(at - this.policy.windowMs))]);
  }

  /**
   * Each counter's failures in this window and the one before, added up: a window's end gives an
   * attacker no fresh allowance, and failures fall out after one to two windows.
   */
  private async recentCounts(keys: readonly string[], at: number): Promise<Map<string, FailureCount>> {
    const [current, previous] = await Promise.all([
      this.counters.read(keys, this.windowOf(at)),
      this.counters.read(keys, this.windowOf(at - this.policy.windowMs)),
    ]);
    const counts = new Map<string, FailureCount>();
    for (const key of keys) {
      const both = [current.get(key), previous.get(key)].filter((count): count is FailureCount => count !== undefined);
      if (both.length > 0)
        counts.set(key, {
          failures: both.reduce((sum, count) => sum + count.failures, 0),
          lastFailureMs: Math.max(...both.map((count) => count.lastFailureMs)),
        });
    }
    return counts;
  }

  private delayMs(failures: number, free: number): number {
    if (failures < free) return 0;
    return Math.min(this.policy.maxDelayMs, this.policy.firstDelayMs * 2 ** Math.min(failures - free, 30));
  }

  private windowStart(atMs: number): number {
    return Math.floor(atMs / this.policy.windowMs) * this.policy.windowMs;
  }

  private windowOf(atMs: number): string {
    return new Date(this.windowStart(atMs)).toISOString();
  }
}

/**
 * A key part as written, or its SHA-256 when longer than any real one: a sign-in may name any org, user or
 * address, and a DynamoDB key holds at most 2,048 bytes (a 3,000-character username was a 500).
 */
function part(text: string): string {
  const encoded = encodeURIComponent(text);
  return encoded.length <= MAX_KEY_PART ? encoded : `sha256:${createHash('sha256').update(text).digest('hex')}`;
}
const MAX_KEY_PART = 256;

function keysOf(attempt: SignInAttempt) {
  const source = part(attempt.source || 'unknown');
  const account = `${part(attempt.orgId)}/${part(attempt.username)}`;
  return { accountSource: `account-source#${account}#${source}`, source: `source#${source}`, account: `account#${account}` };
}

/** The counters as items of the resources table: SIGN_IN#<counter> / <window start>, expiring a window after it. */
export class DynamoFailureCounters implements FailureCounters {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async read(keys: readonly string[], window: string): Promise<Map<string, FailureCount>> {
    const items = await batchGet(
      this.documents,
      this.tableName,
      keys.map((key) => this.key(key, window)),
    );
    const found = new Map<string, FailureCount>();
    for (const item of items) {
      found.set(String(item['pk']).slice(PREFIX.length), { failures: Number(item['failures'] ?? 0), lastFailureMs: Number(item['last_failure_ms'] ?? 0) });
    }
    return found;
  }

  async add(keys: readonly string[], window: string, atMs: number, expiresAtMs: number): Promise<void> {
    await Promise.all(
      keys.map((key) =>
        this.documents.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: this.key(key, window),
            UpdateExpression: 'ADD failures :one SET last_failure_ms = :at, expires_at = :expires',
            ExpressionAttributeValues: { ':one': 1, ':at': atMs, ':expires': Math.ceil(expiresAtMs / 1000) },
          }),
        ),
      ),
    );
  }

  async clear(key: string, window: string): Promise<void> {
    await this.documents.send(new DeleteCommand({ TableName: this.tableName, Key: this.key(key, window) }));
  }

  private key(key: string, window: string) {
    return { pk: `${PREFIX}${key}`, sk: window };
  }
}

const PREFIX = 'SIGN_IN#';
