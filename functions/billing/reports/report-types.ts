import type { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { withFields } from './object-copy';
import type { BillingReport } from '../../../schemas/billing/report';
import type { UsageWindow } from '../../../values/reporting-period';

/** What the report store takes and gives: windows of reports, commit and outcome requests. */

export interface ReportTenant {
  readonly orgId: string;
  readonly appId: string;
}

/** One (meter, window) group as committed. */
export interface WindowReports {
  readonly meterId: string;
  readonly window: UsageWindow;
  /** Incremented by every commit; commits are conditioned on it. */
  readonly revision: number;
  readonly generation: string;
  readonly shards: number;
  /** When the usage of this window was last computed (late events indexed after it trigger a re-evaluation). */
  readonly evaluatedAt: Date;
  /** Sorted by report key. */
  readonly reports: readonly BillingReport[];
  /**
   * The shard copies these reports were read from or committed as, by report key: an outcome commit
   * stores only how its reports differ from them. Absent on a group this store did not hand out
   * (its outcomes are then committed as new shards).
   */
  readonly storedCopies?: ReadonlyMap<string, BillingReport>;
}

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

export interface CommitWindowRequest {
  readonly tenant: ReportTenant;
  readonly meterId: string;
  readonly window: UsageWindow;
  readonly reports: readonly BillingReport[];
  /** The group this commit replaces (its revision is the condition); undefined: the group must not exist yet. */
  readonly previous: WindowReports | undefined;
  readonly evaluatedAt: Date;
  /**
   * Written in the same transaction as the header (at most 95 items). A function is called while the
   * shards are being written (e.g. to write other shards the items point at) and awaited before the commit.
   */
  readonly extraItems?: readonly TransactItem[] | (() => Promise<readonly TransactItem[]>);
  /** Deletes of the replaced generation are handed here instead of awaited (callers await them later). */
  readonly background?: (work: Promise<unknown>) => void;
  readonly now: Date;
}

/**
 * What a delivery did to one report it was given: it set fields on it (in order: the delivered
 * report is the report with these set, new keys last), or it replaced it whole.
 */
export type ReportOutcome = { readonly set: Readonly<Record<string, unknown>> } | { readonly replacement: BillingReport };

/**
 * A delivery over a group's reports, told without a delivered copy of each report: the run records
 * outcomes from this, so the copies (a kilobyte each, alive while a window delivers) are never made.
 */
export interface DeliveredReports {
  /** The reports the delivery was given: the group's own, or copies of them with balances drawn. */
  readonly reports: readonly BillingReport[];
  /** What it did to each one it changed. */
  readonly outcomes: ReadonlyMap<BillingReport, ReportOutcome>;
}

/** A report after delivery: itself, with the fields delivery set, or its replacement. */
export function deliveredReport(report: BillingReport, outcome: ReportOutcome | undefined): BillingReport {
  if (outcome === undefined) return report;
  return 'replacement' in outcome ? outcome.replacement : withFields(report, outcome.set);
}

export interface OutcomesRequestBase {
  readonly tenant: ReportTenant;
  /** The group as read or committed by this store (its revision is the condition). */
  readonly previous: WindowReports;
  /** Old generations replaced by a fallback full rewrite are deleted here (see CommitWindowRequest). */
  readonly background?: (work: Promise<unknown>) => void;
  readonly now: Date;
}

export type CommitOutcomesRequest = OutcomesRequestBase &
  /** The group's reports after delivery (the same report objects where nothing changed). */
  (
    | { readonly reports: readonly BillingReport[] }
    /** What delivery set on the reports (spares a copy of each, and comparing every field with the shard's). */
    | { readonly delivered: DeliveredReports }
  );

/** A group's outcome commit, encoded (ReportStore.prepareOutcomes). */
export type PreparedOutcomes =
  /** The header put with the overlay, and the open marker; the group after the commit when it was kept. */
  | { readonly kind: 'overlay'; readonly items: TransactItem[]; readonly bytes: number; readonly group?: WindowReports }
  /** No overlay (a group this store did not hand out, or one too big for the header): new shards. */
  | { readonly kind: 'rewrite'; readonly request: OutcomesRequestBase; readonly reports: BillingReport[] };

export interface ListWindowsRequest {
  /** Windows overlapping [from, to). */
  readonly from: Date;
  readonly to: Date;
  readonly meterId?: string;
  /** Newest window first unless false. */
  readonly newestFirst?: boolean;
  /** Stop after this many groups (default 50); `cursor` continues. */
  readonly maxWindows?: number;
  readonly cursor?: string;
}
