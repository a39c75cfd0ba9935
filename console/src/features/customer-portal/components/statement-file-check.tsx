import { useState } from 'react';
import { isJsonObject } from '../../../lib/json-object';
import { useVerifyStatement, type StatementToCheck } from '../api/customer-portal';
import { sha256Hex } from '../utils/sha256';
import { VerificationResult } from './verification-result';

/** The statement file as the check sends it: a JSON object naming its org and app, or why it is not one. */
function statementOf(text: string): StatementToCheck | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'The statement file is not JSON.';
  }
  if (!isJsonObject(parsed)) return 'The statement file is not a JSON object.';
  const { org_id, app_id } = parsed;
  if (typeof org_id !== 'string' || typeof app_id !== 'string') return 'The statement file names no org_id and app_id: it is not a statement.';
  return { ...parsed, org_id, app_id };
}

/** The meter whose event list the statement signed under each digest (naming which list a downloaded file is). */
function metersByDigest(statement: StatementToCheck): Map<string, string> {
  const meters: unknown[] = Array.isArray(statement['meters']) ? statement['meters'] : [];
  const digests = new Map<string, string>();
  for (const meter of meters) {
    if (!isJsonObject(meter)) continue;
    const { billing_meter_id, events_digest } = meter;
    if (typeof billing_meter_id === 'string' && typeof events_digest === 'string') digests.set(events_digest, billing_meter_id);
  }
  return digests;
}

/**
 * Checks files the customer downloaded earlier: the statement's signature and whether it is still
 * current (by the service), and each event list's SHA-256 against the digests the statement signed
 * (in the browser: a list is one of the statement's when its digest is).
 */
export function StatementFileCheck() {
  const verify = useVerifyStatement();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [files, setFiles] = useState<string[]>([]);
  const check = async (form: HTMLFormElement) => {
    setRefusal(null);
    verify.reset();
    const data = new FormData(form);
    const statementFile = data.get('statement');
    if (!(statementFile instanceof File) || statementFile.size === 0) return setRefusal('Choose the statement file (JSON).');
    const statement = statementOf(await statementFile.text());
    if (typeof statement === 'string') return setRefusal(statement);
    const signed = metersByDigest(statement);
    const eventDigests: Record<string, string> = {};
    const lines: string[] = [];
    for (const list of data.getAll('events')) {
      if (!(list instanceof File) || list.size === 0) continue;
      const digest = await sha256Hex(await list.text());
      const meterId = signed.get(digest);
      if (meterId !== undefined) eventDigests[meterId] = digest;
      lines.push(
        meterId === undefined ? `${list.name}: not an event list this statement signed` : `${list.name}: the event list of meter ${meterId}, as signed`,
      );
    }
    setFiles(lines);
    verify.mutate({ statement, eventDigests });
  };
  return (
    <section aria-label="Check a downloaded statement" className="panel">
      <h2>Check a downloaded statement</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void check(event.currentTarget);
        }}
      >
        <label>
          Statement (JSON) <input type="file" name="statement" accept="application/json,.json" />
        </label>{' '}
        <label>
          Event lists (CSV) <input type="file" name="events" accept="text/csv,.csv" multiple />
        </label>{' '}
        <button type="submit" disabled={verify.isPending}>
          {verify.isPending ? 'Checking…' : 'Check'}
        </button>
      </form>
      {refusal && <p role="alert">{refusal}</p>}
      {verify.isError && <p role="alert">The check failed: {verify.error.message}</p>}
      {verify.data && <VerificationResult result={verify.data} files={files} />}
    </section>
  );
}
