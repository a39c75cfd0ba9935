import { isJsonObject } from '../../../lib/json-object';
import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { Field } from '../../../components/field';
import { fieldProblem } from '../../../lib/api-error';
import { useSaveAbi } from '../api/abis';

/** Stores a contract's ABI (the JSON its compiler writes) for an address, or for any contract. */
export function AbiForm() {
  const [address, setAddress] = useState('');
  const [name, setName] = useState('');
  const [abiText, setAbiText] = useState('');
  const [jsonProblem, setJsonProblem] = useState<string | undefined>();
  const save = useSaveAbi();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    let abi: unknown;
    try {
      abi = JSON.parse(abiText);
    } catch (error) {
      setJsonProblem(`is not JSON: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    // The compiler's output file holds the ABI under "abi"; a bare array is the ABI itself.
    const items = abiEntries(abi);
    if (!items) {
      setJsonProblem('is not an ABI: a JSON array of entries, or a compiler output holding one under "abi"');
      return;
    }
    setJsonProblem(undefined);
    save.mutate(
      { ...(address.trim() ? { address: address.trim() } : {}), ...(name.trim() ? { name: name.trim() } : {}), abi: items },
      {
        onSuccess: () => {
          setAddress('');
          setName('');
          setAbiText('');
        },
      },
    );
  };
  const addressProblem = fieldProblem(save.error, 'address');
  const itemsProblem = jsonProblem ?? fieldProblem(save.error, 'abi');
  return (
    <form className="stacked-form" onSubmit={submit} aria-label="Add an ABI">
      <Field label="Contract address (blank: any contract)" problem={addressProblem}>
        <input value={address} onChange={(event) => setAddress(event.target.value)} placeholder="0x…" />
      </Field>
      <Field label="Name (optional)" problem={fieldProblem(save.error, 'name')}>
        <input value={name} onChange={(event) => setName(event.target.value)} />
      </Field>
      <Field label="ABI (JSON)" problem={itemsProblem}>
        <textarea value={abiText} onChange={(event) => setAbiText(event.target.value)} rows={8} required spellCheck={false} />
      </Field>
      {save.error && !addressProblem && !fieldProblem(save.error, 'abi') && !fieldProblem(save.error, 'name') && <ErrorMessage error={save.error} />}
      <button type="submit" disabled={save.isPending || abiText.trim() === ''}>
        Store ABI
      </button>
    </form>
  );
}

/** The ABI's entries: the array itself, or the one a compiler output holds under "abi"; each entry is checked by the API. */
function abiEntries(parsed: unknown): Record<string, unknown>[] | undefined {
  const list = isJsonObject(parsed) ? parsed['abi'] : parsed;
  return Array.isArray(list) && list.every(isJsonObject) ? list : undefined;
}
