import { useState, type FormEvent } from 'react';
import { SubscriptionSelect } from '../../../components/company-pickers';
import { ErrorMessage } from '../../../components/error-message';
import { Field } from '../../../components/field';
import { fieldProblem } from '../../../lib/api-error';
import { useRecordTransaction, type BalanceTransactionInput } from '../api/balances';

const TYPES: readonly { value: BalanceTransactionInput['type']; label: string }[] = [
  { value: 'credit', label: 'Credit (adds)' },
  { value: 'promotion', label: 'Promotion (adds)' },
  { value: 'debit', label: 'Debit (takes)' },
  { value: 'adjustment', label: 'Adjustment (signed amount)' },
];

/**
 * Records a credit, promotion, debit or adjustment on one of a company's subscriptions. Each
 * submission carries a fresh transaction id, so a double click cannot record it twice.
 */
export function TransactionForm({ companyId, subscriptionId }: { companyId: string; subscriptionId?: string }) {
  const record = useRecordTransaction();
  const [subscription, setSubscription] = useState(subscriptionId ?? '');
  const [type, setType] = useState<BalanceTransactionInput['type']>('credit');
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');
  const [expireAt, setExpireAt] = useState('');
  const [transactionId, setTransactionId] = useState(() => crypto.randomUUID());
  const [recorded, setRecorded] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input: BalanceTransactionInput = {
      company_id: companyId,
      subscription_id: subscription.trim(),
      transaction_id: transactionId,
      type,
      amount: amount.trim(),
      ...(description.trim() ? { description: description.trim() } : {}),
      ...(expireAt ? { expire_at: new Date(expireAt).toISOString() } : {}),
    };
    record.mutate(input, {
      onSuccess: () => {
        setRecorded(`${type} of ${input.amount} recorded on ${input.subscription_id}.`);
        setTransactionId(crypto.randomUUID());
        setAmount('');
        setDescription('');
      },
    });
  };
  const problem = (field: string) => fieldProblem(record.error, field);
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Record a balance transaction" noValidate>
      <Field label="Subscription" problem={problem('subscription_id')}>
        <SubscriptionSelect name="subscription_id" companyId={companyId} value={subscription} onChange={setSubscription} />
      </Field>
      <Field label="Type" problem={problem('type')}>
        <select name="transaction_type" value={type} onChange={(e) => setType(e.target.value as BalanceTransactionInput['type'])}>
          {TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Amount" problem={problem('amount')}>
        <input name="amount" value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="decimal" size={10} placeholder="50.00" />
      </Field>
      <Field label="Description" problem={problem('description')}>
        <input name="description" value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <Field label="Expires (optional)" problem={problem('expire_at')}>
        <input name="expire_at" type="datetime-local" value={expireAt} onChange={(e) => setExpireAt(e.target.value)} />
      </Field>
      <button type="submit" disabled={record.isPending}>
        Record
      </button>
      {recorded && !record.error && <p role="status">{recorded}</p>}
      {!problem('amount') && !problem('subscription_id') && <ErrorMessage error={record.error} />}
    </form>
  );
}
