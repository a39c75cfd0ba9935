import { useState, type FormEvent } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { Field } from '../../../components/field';
import { Loading } from '../../../components/loading';
import { fieldProblem } from '../../../lib/api-error';
import { RangeSelect } from '../../../components/range-select';
import { useCancelExport, useExports, useStartExport, type ExportInput, type ExportJob } from '../api/exports';

/** Typed filter: a JSON query as is, anything else as query syntax; blank exports everything. */
function queryOf(text: string): Record<string, unknown> | undefined | 'invalid' {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!trimmed.startsWith('{')) return { query_string: { query: trimmed } };
  try {
    return JSON.parse(trimmed) as Record<string, unknown>;
  } catch {
    return 'invalid';
  }
}

function ExportForm() {
  const start = useStartExport();
  const [kind, setKind] = useState<ExportInput['kind']>('events');
  const [format, setFormat] = useState<ExportInput['format']>('csv');
  const [from, setFrom] = useState('-7d');
  const [filter, setFilter] = useState('');
  const query = queryOf(filter);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (query === 'invalid') return;
    start.mutate({ kind, format, ...(kind === 'events' ? { from, to: 'now' } : {}), ...(query ? { query } : {}) });
  };
  const problem = (field: string) => fieldProblem(start.error, field);
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New export" noValidate>
      <Field label="What" problem={problem('kind')}>
        <select name="kind" value={kind} onChange={(e) => setKind(e.target.value as ExportInput['kind'])}>
          <option value="events">Events</option>
          <option value="users">Users</option>
          <option value="companies">Companies</option>
        </select>
      </Field>
      <Field label="Format" problem={problem('format')}>
        <select name="format" value={format} onChange={(e) => setFormat(e.target.value as ExportInput['format'])}>
          <option value="csv">CSV</option>
          <option value="ndjson">NDJSON</option>
        </select>
      </Field>
      {kind === 'events' && (
        <Field label="Time range" problem={problem('from')}>
          <RangeSelect value={from} onChange={setFrom} />
        </Field>
      )}
      <Field label="Only (query syntax or JSON; blank: all)" problem={problem('query') ?? (query === 'invalid' ? 'not valid JSON' : undefined)}>
        <input name="export_query" value={filter} onChange={(e) => setFilter(e.target.value)} size={30} placeholder="response.status:500" />
      </Field>
      <button type="submit" disabled={start.isPending}>
        Start export
      </button>
      {!problem('query') && <ErrorMessage error={start.error} />}
    </form>
  );
}

function JobRow({ job }: { job: ExportJob }) {
  const cancel = useCancelExport();
  const active = job.status === 'queued' || job.status === 'running';
  const percent = job.progress === null ? undefined : Math.round(job.progress * 100);
  return (
    <tr>
      <td>
        {job.kind} ({job.format}){job.from ? `, from ${job.from}` : ''}
      </td>
      <td>
        {job.status}
        {job.error ? `: ${job.error}` : ''}
      </td>
      <td>
        {percent === undefined ? (
          '—'
        ) : (
          <progress max={100} value={percent} aria-label={`Export ${job._id} progress`}>
            {percent}%
          </progress>
        )}{' '}
        {job.exported.toLocaleString()}
        {job.estimated_total === null ? '' : ` of ${job.estimated_total.toLocaleString()}`}
      </td>
      <td>
        {job.parts.length === 0
          ? '—'
          : job.parts.map((part) => <a key={part.number} href={part.url} download>{`Part ${part.number} (${part.rows.toLocaleString()} rows)`}</a>)}
      </td>
      <td>
        {active && (
          <button type="button" className="secondary" onClick={() => cancel.mutate(job._id)} disabled={cancel.isPending}>
            Cancel
          </button>
        )}
      </td>
    </tr>
  );
}

/** Bulk exports: start one, follow its progress, download its parts, cancel it while it runs. */
export function ExportsPageBody() {
  const jobs = useExports();
  return (
    <section aria-label="Exports">
      <ExportForm />
      {jobs.isPending ? (
        <Loading label="Loading exports…" />
      ) : jobs.error ? (
        <ErrorMessage error={jobs.error} />
      ) : jobs.data.length === 0 ? (
        <EmptyState title="No exports yet">
          <p>
            Choose what to export above and click <strong>Start export</strong>; its parts can be downloaded here.
          </p>
        </EmptyState>
      ) : (
        <table className="event-table" aria-label="Export jobs">
          <thead>
            <tr>
              <th scope="col">Export</th>
              <th scope="col">Status</th>
              <th scope="col">Progress</th>
              <th scope="col">Download</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {jobs.data.map((job) => (
              <JobRow key={job._id} job={job} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
