import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { StoredConsoleSession, type ConsoleSession } from '../../schemas/console-session';
import type { ManagementScope } from '../../schemas/scopes';

/**
 * Console sessions (resources table, `CONSOLE_SESSION#<id>` / `SESSION`): what lets a person stay
 * signed in across tabs and reloads without the password. The browser holds `<id>.<secret>` in an
 * HttpOnly cookie; the table holds only the secret's hash. Every refresh rotates the secret. The
 * secret it replaced stays good for ROTATION_GRACE_MS, because two tabs opened together both send
 * the old cookie; after that, the old secret is a stolen copy: the session is revoked.
 */

/** A session lasts at most this long, then the password is asked again. */
export const SESSION_LIFETIME_SECONDS = 7 * 24 * 3600;
/** A session not refreshed for this long ends (no tab open for half a day). */
export const SESSION_IDLE_SECONDS = 12 * 3600;
export const ROTATION_GRACE_MS = 30_000;

const key = (id: string) => ({ pk: `CONSOLE_SESSION#${id}`, sk: 'SESSION' });
const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');
const newSecret = () => randomBytes(32).toString('base64url');

function sameHash(a: string, b: string | undefined): boolean {
  return b !== undefined && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export type { ConsoleSession };

export type RefreshOutcome =
  | { readonly kind: 'rotated'; readonly session: ConsoleSession; readonly cookie: string }
  /** The previous secret within the grace: the session is good, the cookie a sibling tab just rotated stays. */
  | { readonly kind: 'current'; readonly session: ConsoleSession }
  | { readonly kind: 'refused'; readonly reason: string };

export class ConsoleSessionStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** A new session; answers it and the cookie value that names it. */
  async start(
    input: { org_id: string; app_id: string; sub: string; scopes: readonly ManagementScope[] },
    now: Date,
  ): Promise<{ session: ConsoleSession; cookie: string }> {
    const id = randomBytes(16).toString('hex');
    const secret = newSecret();
    const seconds = Math.floor(now.getTime() / 1000);
    const session: StoredConsoleSession = {
      id,
      ...input,
      scopes: [...input.scopes],
      created_at: now.toISOString(),
      expires_at: seconds + SESSION_LIFETIME_SECONDS,
      idle_expires_at: seconds + SESSION_IDLE_SECONDS,
      secret_hash: hash(secret),
      rotated_at: now.getTime(),
    };
    await this.documents.send(new PutCommand({ TableName: this.tableName, Item: { ...key(id), ...session }, ConditionExpression: 'attribute_not_exists(pk)' }));
    return { session: publicView(session), cookie: `${id}.${secret}` };
  }

  /** Checks a cookie value and rotates its secret (see the class comment for the grace of the previous one). */
  async refresh(cookie: string, now: Date): Promise<RefreshOutcome> {
    const [id, secret] = splitCookie(cookie);
    if (!id || !secret) return { kind: 'refused', reason: 'the session cookie is malformed' };
    const stored = await this.read(id);
    if (!stored) return { kind: 'refused', reason: 'the session is unknown or has ended' };
    const seconds = Math.floor(now.getTime() / 1000);
    if (stored.revoked_at) return { kind: 'refused', reason: `the session was ended at ${stored.revoked_at}` };
    if (stored.expires_at <= seconds || stored.idle_expires_at <= seconds) return { kind: 'refused', reason: 'the session has expired' };
    const presented = hash(secret);
    if (sameHash(presented, stored.previous_hash) && now.getTime() - stored.rotated_at <= ROTATION_GRACE_MS)
      return { kind: 'current', session: publicView(stored) };
    if (!sameHash(presented, stored.secret_hash)) {
      // A secret that was rotated away long ago is being replayed: end the session for every holder.
      if (sameHash(presented, stored.previous_hash)) await this.revoke(id, now);
      return { kind: 'refused', reason: 'the session cookie was replaced; sign in again' };
    }
    const next = newSecret();
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(id),
          UpdateExpression: 'SET secret_hash = :next, previous_hash = :current, rotated_at = :now, idle_expires_at = :idle',
          ConditionExpression: 'secret_hash = :current AND attribute_not_exists(revoked_at)',
          ExpressionAttributeValues: {
            ':next': hash(next),
            ':current': presented,
            ':now': now.getTime(),
            ':idle': Math.min(stored.expires_at, seconds + SESSION_IDLE_SECONDS),
          },
        }),
      );
    } catch (error) {
      // Another tab rotated it a moment ago with the same secret: that is the grace case.
      if (error instanceof ConditionalCheckFailedException) return this.refresh(cookie, now);
      throw error;
    }
    return { kind: 'rotated', session: publicView(stored), cookie: `${id}.${next}` };
  }

  /** Ends a session (sign-out); a cookie that names no session ends nothing. */
  async end(cookie: string, now: Date): Promise<void> {
    const [id] = splitCookie(cookie);
    if (id) await this.revoke(id, now);
  }

  private async revoke(id: string, now: Date): Promise<void> {
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(id),
          UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :at)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':at': now.toISOString() },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  private async read(id: string): Promise<StoredConsoleSession | undefined> {
    const result = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: key(id), ConsistentRead: true }));
    return result.Item ? StoredConsoleSession.parse(result.Item) : undefined;
  }
}

function splitCookie(cookie: string): [string | undefined, string | undefined] {
  const dot = cookie.indexOf('.');
  if (dot <= 0 || !/^[0-9a-f]{32}$/.test(cookie.slice(0, dot))) return [undefined, undefined];
  return [cookie.slice(0, dot), cookie.slice(dot + 1)];
}

function publicView(stored: StoredConsoleSession): ConsoleSession {
  const { id, org_id, app_id, sub, scopes, created_at, expires_at, idle_expires_at } = stored;
  return { id, org_id, app_id, sub, scopes, created_at, expires_at, idle_expires_at };
}
