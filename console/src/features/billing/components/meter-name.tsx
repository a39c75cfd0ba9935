import { useMeter } from '../api/meters';

/** A meter as a person reads it: its name, with the id in a tooltip (the id alone while loading, or when the meter is gone). */
export function MeterName({ id }: { id: string }) {
  const meter = useMeter(id);
  if (meter.data === undefined) return <code>{id}</code>;
  return <span title={id}>{meter.data.name}</span>;
}
