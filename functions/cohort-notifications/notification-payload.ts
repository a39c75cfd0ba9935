import { renderEmail, type RenderedEmail } from '../emails/email-render';
import type { CohortTenant, NotificationBatch, PendingChange } from './cohort-watch-store';
import type { CohortNotificationTarget } from './notification-cohorts';

/** What a cohort notification says: the webhook event and the email. */

export const NOTIFICATION_EVENT_TYPE = 'cohort.members_changed';

/**
 *   {"id": "<batch id>", "type": "cohort.members_changed", "created": "…",
 *    "data": {"org_id", "app_id", "cohort": {"id", "name", "type"},
 *             "added": [{"id", "at", "fields": {…}}], "removed": [{"id", "at", "fields": {…}}]}}
 * The id is the same on every resend of the notification: receivers deduplicate by it.
 */
export function notificationEvent(tenant: CohortTenant, cohort: CohortNotificationTarget, batch: NotificationBatch, changes: readonly PendingChange[]) {
  const entry = (change: PendingChange) => ({ id: change.member_id, at: change.at, fields: change.fields });
  return {
    id: batch.batch_id,
    type: NOTIFICATION_EVENT_TYPE,
    created: batch.created_at,
    data: {
      org_id: tenant.orgId,
      app_id: tenant.appId,
      cohort: { id: cohort.id, name: cohort.name, type: cohort.type },
      added: changes.filter((c) => c.change === 'added').map(entry),
      removed: changes.filter((c) => c.change === 'removed').map(entry),
    },
  };
}

const EMAIL = {
  subject: 'Cohort “{{cohort}}”: {{added.length}} joined, {{removed.length}} left',
  html:
    '<p>Changes in the {{type}} cohort <strong>{{cohort}}</strong>:</p>' +
    '{{#if added.length}}<h3>Joined</h3><table><tr><th>id</th>{{#each fields}}<th>{{this}}</th>{{/each}}</tr>{{#each added}}<tr><td>{{id}}</td>{{#each values}}<td>{{this}}</td>{{/each}}</tr>{{/each}}</table>{{/if}}' +
    '{{#if removed.length}}<h3>Left</h3><table><tr><th>id</th>{{#each fields}}<th>{{this}}</th>{{/each}}</tr>{{#each removed}}<tr><td>{{id}}</td>{{#each values}}<td>{{this}}</td>{{/each}}</tr>{{/each}}</table>{{/if}}',
};

/** The notification as an email (values escaped by the template engine). */
export function notificationEmail(cohort: CohortNotificationTarget, changes: readonly PendingChange[]): RenderedEmail {
  const row = (change: PendingChange) => ({ id: change.member_id, values: cohort.fields.map((field) => shown(change.fields[field])) });
  return renderEmail(EMAIL, {
    cohort: cohort.name,
    type: cohort.type,
    fields: cohort.fields,
    added: changes.filter((c) => c.change === 'added').map(row),
    removed: changes.filter((c) => c.change === 'removed').map(row),
  });
}

const shown = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
