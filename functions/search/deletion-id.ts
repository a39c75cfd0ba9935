import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TenantScope } from './port';

/**
 * What a client gets to follow a background deletion: the backend's task id bound to the tenant that
 * started it, signed with the management token key. Backend task ids are global to the cluster, so
 * a bare one would let any tenant read any task; a signed id only ever answers its own tenant.
 *   <base64url of {"t": task, "o": org, "a": app}>.<HMAC-SHA256, base64url>
 */
export function signDeletionId(key: Buffer, scope: TenantScope, task: string): string {
  const payload = Buffer.from(JSON.stringify({ t: task, o: scope.org_id, a: scope.app_id })).toString('base64url');
  return `${payload}.${mac(key, payload)}`;
}

/** The task of a deletion id this tenant was given; undefined for anything else (forged, altered or another tenant's). */
export function taskOfDeletionId(key: Buffer, scope: TenantScope, deletionId: string): string | undefined {
  const [payload, signature, ...rest] = deletionId.split('.');
  if (!payload || !signature || rest.length > 0) return undefined;
  const expected = Buffer.from(mac(key, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const { t, o, a } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { t?: unknown; o?: unknown; a?: unknown };
    return typeof t === 'string' && o === scope.org_id && a === scope.app_id ? t : undefined;
  } catch {
    return undefined;
  }
}

function mac(key: Buffer, payload: string): string {
  // A purpose label keeps these MACs distinct from the management tokens signed with the same key.
  return createHmac('sha256', key).update(`deletion:${payload}`).digest('base64url');
}
