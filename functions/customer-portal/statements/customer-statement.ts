import { MAX_STATEMENT_EVENTS, type CustomerStatement, type StatementMeter } from '../../../schemas/billing/customer-statement';
import type { CustomerUsage } from '../../../schemas/billing/customer-usage';
import { canonicalJson } from '../../../values/canonical-json';
import { mapWithConcurrency } from '../../shared/concurrency';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { loadCustomerLines, type CustomerLines } from '../usage/customer-asks';
import { customerUsageLines, type CustomerUsageDeps } from '../usage/customer-usage';
import type { QuantityAsk } from '../usage/window-quantities';
import { signStatement, statementKeyPair, STATEMENT_SIGNATURE_ALGORITHM, type StatementTenant } from './statement-keys';
import { statementEventCount, statementEventsDigest, type StatementEventSource } from './statement-events';
import { recordStatementVersion, statementVersions, type StatementRef } from './statement-versions';

/**
 * A customer's statement of one closed period of one subscription: the bill as the usage page
 * computes it from the events (equal to what the billing run reports once it has reported the
 * period), what the run reported, and per meter the count and digest of the events behind it.
 * Issued as version 1 the first time it is asked for; whenever what it says changes (a void, a
 * replacement, a late event, the period turning final), the next ask issues the next version and
 * says what changed. Each version is signed with the app's key and kept as issued.
 */

/** Meters whose event lists are read at once. */
const LISTS_IN_FLIGHT = 2;

export interface StatementDeps extends CustomerUsageDeps {
  /** The service's signing key (the root every app's statement key is derived from). */
  readonly signingKey: () => Promise<Buffer>;
}

export interface StatementInput {
  readonly tenant: StatementTenant;
  readonly companyId: string;
  readonly subscriptionId: string;
  readonly periodStart: Date;
  readonly now: Date;
}

type StatementContent = Pick<CustomerStatement, 'org_id' | 'app_id' | 'company_id' | 'subscription_id' | 'period' | 'meters' | 'totals'>;

/** The statement's lines and what the usage page measured them from: the period must have ended. */
export async function statementLines(deps: CustomerUsageDeps, input: StatementInput): Promise<{ usage: CustomerUsage; asks: QuantityAsk[] }> {
  const lines = await customerUsageLines(deps, input);
  const subscription = lines.usage.subscriptions.find((s) => s.subscription_id === input.subscriptionId);
  if (!subscription) throw noPeriod(input);
  if (!subscription.period.closed) throw periodOpen(subscription.period.end);
  return lines;
}

const noPeriod = (input: StatementInput) =>
  new NotFoundError(`The subscription ${input.subscriptionId} has no billing period starting ${input.periodStart.toISOString()}`);
const periodOpen = (end: string) =>
  new ValidationError('Invalid period_start: the period has not ended', [
    { field: 'period_start', reason: `the period ends ${end}: a statement is of a closed period` },
  ]);

/**
 * The customer's lines in the statement's period, without measuring them (the subscriptions and the
 * meters only): refused as the statement is when the period is not the subscription's or has not ended.
 */
async function closedPeriodLines(deps: CustomerUsageDeps, input: StatementInput): Promise<CustomerLines> {
  const lines = await loadCustomerLines(deps, input);
  const period = lines.periods.get(input.subscriptionId);
  if (!period) throw noPeriod(input);
  if (!period.closed) throw periodOpen(period.end.toISOString());
  return lines;
}

/** One line's events to list: its meter's, of the subscription, in its period, which must have ended. */
export async function statementAsk(deps: CustomerUsageDeps, input: StatementInput, billingMeterId: string): Promise<QuantityAsk> {
  const { asks } = await closedPeriodLines(deps, input);
  const ask = asks.find((a) => a.meter.id === billingMeterId && a.subscription.subscriptionId === input.subscriptionId);
  if (!ask) {
    // The subscription and period are the customer's (else refused above): the meter is what does not fit.
    throw new ValidationError('Invalid billing_meter_id: not a meter of this statement', [
      { field: 'billing_meter_id', reason: 'the statement has no line of this meter (it does not bill the subscription)' },
    ]);
  }
  return ask;
}

/** The statement as it stands now: the newest version on record, or a new one when what it says has changed. */
export async function currentStatement(deps: StatementDeps, input: StatementInput): Promise<CustomerStatement> {
  const ref: StatementRef = { subscriptionId: input.subscriptionId, periodStart: input.periodStart.toISOString() };
  const [content, versions] = await Promise.all([statementContent(deps, input), statementVersions(deps.resources, input.tenant, ref)]);
  const latest = versions.at(-1);
  if (latest && sameContent(latest, content)) return latest;
  const pair = statementKeyPair(await deps.signingKey(), input.tenant);
  const unsigned = {
    ...content,
    version: (latest?.version ?? 0) + 1,
    issued_at: input.now.toISOString(),
    changes: latest ? changesFrom(latest, content) : [],
  };
  const next: CustomerStatement = {
    ...unsigned,
    signature: { algorithm: STATEMENT_SIGNATURE_ALGORITHM, key_id: pair.keyId, value: signStatement(pair, unsigned) },
  };
  const recorded = await recordStatementVersion(deps.resources, input.tenant, ref, next);
  // Another request issued the version first: it stands when it says the same.
  if (recorded !== next && !sameContent(recorded, content)) return currentStatement(deps, input);
  return recorded;
}

/** An earlier version as it was issued. */
export async function issuedStatement(deps: StatementDeps, input: StatementInput, version: number): Promise<CustomerStatement> {
  // Only the customer's own ended periods: checked from its subscriptions, without measuring the usage again.
  await closedPeriodLines(deps, input);
  const versions = await statementVersions(deps.resources, input.tenant, {
    subscriptionId: input.subscriptionId,
    periodStart: input.periodStart.toISOString(),
  });
  const found = versions.find((v) => v.version === version);
  if (!found) throw new NotFoundError(`The statement has no version ${version} on record (the newest is ${versions.at(-1)?.version ?? 'none'})`);
  return found;
}

async function statementContent(deps: StatementDeps, input: StatementInput): Promise<StatementContent> {
  const { usage, asks } = await statementLines(deps, input);
  const subscription = usage.subscriptions.find((s) => s.subscription_id === input.subscriptionId)!;
  const invoice = usage.invoices.find((i) => i.subscription_id === input.subscriptionId && i.period_start === subscription.period.start);
  const source: StatementEventSource = { index: deps.index, scope: { org_id: input.tenant.orgId, app_id: input.tenant.appId }, now: input.now };
  const shown = usage.meters.filter((meter) => meter.subscription_id === input.subscriptionId);
  const meters = await mapWithConcurrency(shown, LISTS_IN_FLIGHT, async (line): Promise<StatementMeter> => {
    const ask = asks.find((a) => a.meter.id === line.billing_meter_id && a.subscription.subscriptionId === input.subscriptionId)!;
    const count = await statementEventCount(source, ask);
    const listed = count <= MAX_STATEMENT_EVENTS ? await statementEventsDigest(source, ask) : undefined;
    const { meter } = ask;
    return {
      billing_meter_id: meter.id,
      name: meter.name,
      rule: {
        metric: meter.metric.type,
        field: meter.metric.field,
        multiplier: meter.multiplier,
        rounding: meter.rounding,
        window_minutes: meter.periodMs / 60_000,
      },
      usage: line.usage,
      reported_usage: invoice?.meters.find((m) => m.billing_meter_id === meter.id)?.usage ?? null,
      currency: line.currency,
      amount: line.amount,
      event_count: listed?.rows ?? count,
      events_digest: listed?.digest ?? null,
    };
  });
  return {
    org_id: input.tenant.orgId,
    app_id: input.tenant.appId,
    company_id: input.companyId,
    subscription_id: input.subscriptionId,
    period: { start: subscription.period.start, end: subscription.period.end, status: subscription.period.status },
    meters,
    totals: usage.totals.map(({ currency, amount }) => ({ currency, amount })),
  };
}

const contentOf = (statement: StatementContent) =>
  canonicalJson({ period: statement.period, meters: statement.meters, totals: statement.totals, company_id: statement.company_id });
const sameContent = (issued: CustomerStatement, content: StatementContent) => contentOf(issued) === contentOf(content);

/** What a new version says differs from the one before, in words. */
function changesFrom(previous: CustomerStatement, next: StatementContent): string[] {
  const changes: string[] = [];
  if (previous.period.status !== next.period.status) changes.push(`the period is ${next.period.status} (was ${previous.period.status})`);
  const before = new Map(previous.meters.map((meter) => [meter.billing_meter_id, meter]));
  for (const meter of next.meters) {
    const old = before.get(meter.billing_meter_id);
    before.delete(meter.billing_meter_id);
    if (!old) {
      changes.push(`${meter.name}: new in this version (usage ${meter.usage})`);
      continue;
    }
    if (old.usage !== meter.usage) changes.push(`${meter.name}: usage ${old.usage} → ${meter.usage}`);
    if (old.amount !== meter.amount) changes.push(`${meter.name}: amount ${old.amount ?? '—'} → ${meter.amount ?? '—'}`);
    if (old.reported_usage !== meter.reported_usage)
      changes.push(`${meter.name}: reported usage ${old.reported_usage ?? '—'} → ${meter.reported_usage ?? '—'}`);
    if (old.event_count !== meter.event_count || old.events_digest !== meter.events_digest)
      changes.push(`${meter.name}: events ${old.event_count} → ${meter.event_count}${old.event_count === meter.event_count ? ' (others in their place)' : ''}`);
  }
  for (const meter of before.values()) changes.push(`${meter.name}: no usage in this version (was ${meter.usage})`);
  if (changes.length === 0) changes.push('the totals changed');
  return changes;
}
