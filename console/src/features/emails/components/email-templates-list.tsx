import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { useEmailTemplatePages, type EmailTemplateState } from '../api/templates';
import { periodText } from '../utils/period-text';
import { QueryState } from '../../../components/query-state';

export const STATE_NAMES: Record<EmailTemplateState, string> = { 0: 'Draft', 1: 'Active', 2: 'Paused' };

/** The app's behavioural email templates, each opening its preview, sends log and test send. */
export function EmailTemplatesList() {
  const templates = useEmailTemplatePages();
  const items = templates.data?.pages.flatMap((page) => page.items) ?? [];
  if (!templates.isSuccess) return <QueryState query={templates} loading="Loading email templates…" />;
  if (items.length === 0) {
    return (
      <EmptyState title="No email templates yet">
        <p>
          A template is sent to the members of its cohorts, once per period: click <Link to="/emails/new">New template</Link>.
        </p>
      </EmptyState>
    );
  }
  return (
    <>
      <table className="event-table" aria-label="Email templates">
        <thead>
          <tr>
            <th scope="col">Template</th>
            <th scope="col">State</th>
            <th scope="col">Sent</th>
            <th scope="col">Subject</th>
            <th scope="col">Cohorts</th>
          </tr>
        </thead>
        <tbody>
          {items.map((template) => (
            <tr key={template._id}>
              <td>
                <Link to={`/emails/${encodeURIComponent(template._id)}`}>{template.name}</Link>
              </td>
              <td>{STATE_NAMES[template.state]}</td>
              <td>{periodText(template.period)}</td>
              <td>{template.template.subject}</td>
              <td>{template.cohorts.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {templates.hasNextPage && (
        <button type="button" onClick={() => void templates.fetchNextPage()} disabled={templates.isFetchingNextPage}>
          More templates
        </button>
      )}
    </>
  );
}
