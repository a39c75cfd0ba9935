import { CustomerStatement, type StatementVerification } from '../../../schemas/billing/customer-statement';
import type { ResourceStore } from '../../resources/resource-store';
import { isServiceError } from '../../shared/errors';
import { statementKeyPair, statementSignatureHolds } from './statement-keys';
import { statementVersions } from './statement-versions';

/**
 * Checks a downloaded statement: its signature under its app's key (so no byte of what it says was
 * altered), whether a newer version has been issued since, and, for the event lists whose digests
 * the caller computed, that each matches the digest the statement signed.
 */

export interface VerificationDeps {
  readonly resources: ResourceStore;
  readonly signingKey: () => Promise<Buffer>;
  /**
   * Takes one check of the org's allowance before a signed statement is compared with its period as
   * it stands (which re-reads the period's events); throws the 429 when none is left.
   */
  readonly admit: (tenant: { orgId: string; appId: string }) => Promise<unknown>;
  /**
   * The period's statement as it stands now (a new version issued when its events or amounts changed
   * since the newest on record): a check compares with it, so a change nobody has asked about yet is
   * not missed.
   */
  readonly current: (
    tenant: { orgId: string; appId: string },
    statement: { company_id: string; subscription_id: string; period_start: string },
  ) => Promise<{ version: number }>;
}

export async function verifyStatement(
  deps: VerificationDeps,
  statement: Record<string, unknown>,
  eventDigests: Readonly<Record<string, string>> = {},
): Promise<StatementVerification> {
  const parsed = CustomerStatement.safeParse(statement);
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
  const latest = signed ? await latestVersion(deps, tenant, data, problems) : null;
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

/** The newest version: the current statement's, or, when the period can no longer be stated, the newest on record. */
async function latestVersion(
  deps: VerificationDeps,
  tenant: { orgId: string; appId: string },
  data: CustomerStatement,
  problems: string[],
): Promise<number | null> {
  await deps.admit(tenant);
  try {
    return (await deps.current(tenant, { company_id: data.company_id, subscription_id: data.subscription_id, period_start: data.period.start })).version;
  } catch (error) {
    if (!isServiceError(error) || error.status >= 500) throw error;
    problems.push(`the period can no longer be stated as it stands now (${error.message}); compared with the versions on record`);
    const versions = await statementVersions(deps.resources, tenant, { subscriptionId: data.subscription_id, periodStart: data.period.start });
    return versions.at(-1)?.version ?? null;
  }
}
