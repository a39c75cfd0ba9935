import * as z from 'zod';
import { StatementSignature, type StatementVerification } from '../../../schemas/billing/customer-statement';
import type { ResourceStore } from '../../resources/resource-store';
import { statementKeyPair, statementSignatureHolds } from './statement-keys';
import { statementVersions } from './statement-versions';

/**
 * Checks a downloaded statement: its signature under its app's key (so no byte of what it says was
 * altered), whether a newer version has been issued since, and, for the event lists whose digests
 * the caller computed, that each matches the digest the statement signed.
 */

const Checked = z.object({
  org_id: z.string(),
  app_id: z.string(),
  subscription_id: z.string(),
  period: z.object({ start: z.string() }),
  version: z.number(),
  meters: z.array(z.object({ billing_meter_id: z.string(), events_digest: z.string().nullable() })),
  signature: StatementSignature,
});

export async function verifyStatement(
  deps: { readonly resources: ResourceStore; readonly signingKey: () => Promise<Buffer> },
  statement: Record<string, unknown>,
  eventDigests: Readonly<Record<string, string>> = {},
): Promise<StatementVerification> {
  const parsed = Checked.safeParse(statement);
  const tenant = { orgId: String(statement['org_id']), appId: String(statement['app_id']) };
  const pair = statementKeyPair(await deps.signingKey(), tenant);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'statement'}: ${issue.message}`);
    return { valid: false, signature: 'invalid', key_id: pair.keyId, version: null, latest_version: null, superseded: false, events: [], problems };
  }
  const { data } = parsed;
  const problems: string[] = [];
  const signed = data.signature.key_id === pair.keyId && statementSignatureHolds(pair, statement, data.signature.value);
  if (data.signature.key_id !== pair.keyId) problems.push(`signed with the key ${data.signature.key_id}, not this app's (${pair.keyId})`);
  else if (!signed) problems.push('the signature does not hold: the statement was altered after it was signed');
  const versions = signed ? await statementVersions(deps.resources, tenant, { subscriptionId: data.subscription_id, periodStart: data.period.start }) : [];
  const latest = versions.at(-1)?.version ?? null;
  const superseded = latest !== null && latest > data.version;
  if (superseded) problems.push(`version ${latest} has been issued since: this version (${data.version}) is no longer the statement of the period`);
  const events = Object.entries(eventDigests).map(([meterId, digest]) => {
    const line = data.meters.find((meter) => meter.billing_meter_id === meterId);
    const matches = line?.events_digest === digest;
    if (!line) problems.push(`the statement has no meter ${meterId}`);
    else if (!matches) problems.push(`the event list of ${meterId} is not the one the statement signed (its SHA-256 differs)`);
    return { billing_meter_id: meterId, matches };
  });
  return {
    valid: signed && events.every((event) => event.matches),
    signature: signed ? 'valid' : 'invalid',
    key_id: pair.keyId,
    version: data.version,
    latest_version: latest,
    superseded,
    events,
    problems,
  };
}
