import type { StoredCohort } from '../../schemas/governance';
import type { QueryNode } from '../../schemas/search-tree';
import { CohortUnavailable, forEachCohortMember, type CohortMemberInput } from '../cohorts/cohort-members';
import { forEachMember } from '../cohorts/profile-pages';
import { MAX_SIZE, parseQuery } from '../search/dsl';

/**
 * Who a template goes to: the members of its cohorts with an email address (`metadata.email`). A user
 * cohort's members are its users; a company cohort's are its companies, and each company's users
 * with an address receive it (the company's events fill its dynamic fields).
 */

export interface Recipient {
  readonly userId: string;
  readonly email: string;
  /** Whose events fill the dynamic fields: the user, or the company of a company-cohort member. */
  readonly member: { readonly kind: 'user' | 'company'; readonly id: string };
  readonly companyId: string | null;
  /** The user's profile as stored (what `{{user.…}}` reads). */
  readonly profile: Record<string, unknown>;
}

/** Recipients of one template per run; past this the rest wait (the run says so). */
export const MAX_RECIPIENTS_PER_TEMPLATE = 100_000;
const PROFILE_FIELDS = ['user_id', 'company_id', 'name', 'first_name', 'last_name', 'email', 'metadata'];

export interface RecipientsResult {
  readonly recipients: Recipient[];
  /** Members with an address that `done` said were already handled for the period. */
  readonly done: number;
  readonly problems: string[];
}

/**
 * The template's recipients, less those `done` names (handled for the period already): they do not
 * count towards the cap, so a cohort larger than it is worked through run after run.
 */
export async function templateRecipients(
  input: CohortMemberInput,
  cohorts: readonly { id: string; cohort: StoredCohort | undefined }[],
  done: (userId: string) => boolean = () => false,
): Promise<RecipientsResult> {
  const byUser = new Map<string, Recipient>();
  const skipped = new Set<string>();
  const problems: string[] = [];
  const cap = input.maxMembersPerRule ?? MAX_RECIPIENTS_PER_TEMPLATE;
  const add = (recipient: Recipient) => {
    if (done(recipient.userId)) skipped.add(recipient.userId);
    else if (!byUser.has(recipient.userId) && byUser.size < cap) byUser.set(recipient.userId, recipient);
  };
  for (const { id, cohort } of cohorts) {
    if (!cohort) {
      problems.push(`cohort ${id} no longer exists`);
      continue;
    }
    const companies: string[] = [];
    try {
      if (cohort.cohort_type === 'user') {
        await forEachCohortMember(input, cohort, PROFILE_FIELDS, (userId, source) => {
          const email = emailOf(source);
          if (email)
            add({ userId, email, member: { kind: 'user', id: userId }, companyId: stringOr(source['company_id']), profile: { ...source, user_id: userId } });
        });
        continue;
      }
      await forEachCohortMember(input, cohort, [], (companyId) => {
        companies.push(companyId);
      });
    } catch (error) {
      // Criteria that cannot be computed are reported; a failing search fails the run (it is retried).
      if (!(error instanceof CohortUnavailable)) throw error;
      problems.push(`cohort ${id}: ${error.message}`);
      continue;
    }
    for (let i = 0; i < companies.length; i += MAX_TERMS) {
      const batch = companies.slice(i, i + MAX_TERMS);
      await forEachMember(input, 'users', companyUsers(batch), PROFILE_FIELDS, (userId, source) => {
        const email = emailOf(source);
        const companyId = stringOr(source['company_id']);
        if (email && companyId) add({ userId, email, member: { kind: 'company', id: companyId }, companyId, profile: { ...source, user_id: userId } });
      });
    }
  }
  if (byUser.size >= cap) problems.push(`more than ${cap} recipients; the rest are sent to by a later run`);
  return { recipients: [...byUser.values()], done: skipped.size, problems };
}

/** Ids per `terms` query (the search port's bound on a terms list). */
const MAX_TERMS = Math.min(MAX_SIZE, 1_000);

function companyUsers(companyIds: readonly string[]): QueryNode {
  return parseQuery({ terms: { 'company_id.raw': [...companyIds] } });
}

/** `metadata.email`, when it looks like an address (anything else is not sent to). */
function emailOf(source: Record<string, unknown>): string | undefined {
  const metadata = source['metadata'];
  const email = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>)['email'] : undefined;
  return typeof email === 'string' && /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/.test(email.trim()) && email.length <= 254 ? email.trim() : undefined;
}

const stringOr = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
