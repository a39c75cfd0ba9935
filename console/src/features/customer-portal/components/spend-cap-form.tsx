import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { QueryState } from '../../../components/query-state';
import { useSaveSpendCap, useSpendCap, type SpendCapStanding } from '../api/customer-portal';
import { formatMoney } from '../utils/usage-theme';

/** The customer's own budget per billing period: a warning threshold, and a hard cap that stops its API calls. */
export function SpendCapForm({ token, currency, locale }: { token: string; currency: string; locale: string | undefined }) {
  const cap = useSpendCap(token);
  if (!cap.isSuccess) return <QueryState query={cap} loading="Loading your spend cap…" />;
  return <SpendCapFields key={cap.data?.updated_at ?? 'none'} token={token} currency={currency} locale={locale} standing={cap.data} />;
}

function SpendCapFields({
  token,
  currency,
  locale,
  standing,
}: {
  token: string;
  currency: string;
  locale: string | undefined;
  standing: SpendCapStanding | null;
}) {
  const save = useSaveSpendCap(token);
  const [budget, setBudget] = useState(standing?.budget ?? '');
  const [warnAt, setWarnAt] = useState(String(standing?.warn_at_percent ?? 80));
  const [hardCap, setHardCap] = useState(standing?.hard_cap ?? false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ budget: budget.trim(), currency: standing?.currency ?? currency, warn_at_percent: Number(warnAt), hard_cap: hardCap });
  };
  return (
    <section aria-label="Spend cap" className="spend-cap">
      <h2>Spend cap</h2>
      {standing && (
        <p role="status">
          {formatMoney(standing.spent, standing.currency, locale)} of {formatMoney(standing.budget, standing.currency, locale)} spent ({standing.used_percent}{' '}
          %)
          {standing.capped ? ' — the cap is reached: API calls are blocked until the period ends or the budget is raised.' : ''}
          {!standing.capped && standing.warning ? ' — past your warning threshold.' : ''}
        </p>
      )}
      <form className="inline-form" onSubmit={submit} aria-label="Set the spend cap">
        <label>
          Budget per period ({(standing?.currency ?? currency).toUpperCase()})
          <input value={budget} onChange={(e) => setBudget(e.target.value)} inputMode="decimal" required placeholder="250" />
        </label>
        <label>
          Warn at (% of the budget)
          <input type="number" min={1} max={100} value={warnAt} onChange={(e) => setWarnAt(e.target.value)} />
        </label>
        <label className="toggle">
          <input type="checkbox" checked={hardCap} onChange={(e) => setHardCap(e.target.checked)} />
          Stop API calls when the budget is reached
        </label>
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save the cap'}
        </button>
        {standing && (
          <button type="button" className="secondary" disabled={save.isPending} onClick={() => save.mutate(null)}>
            Remove the cap
          </button>
        )}
      </form>
      <ErrorMessage error={save.error} />
    </section>
  );
}
