import type { ReactNode } from 'react';
import { RELATIVE_RANGES } from '../lib/time';

/**
 * The select of a relative time range (`-24h` … `-6M`), the one every page offers. `first` and
 * `last` are a page's own options before or after them ("each workspace's own", "between dates…").
 */
export function RangeSelect({
  value,
  onChange,
  name = 'from',
  first,
  last,
}: {
  value: string;
  onChange: (from: string) => void;
  name?: string;
  first?: ReactNode;
  last?: ReactNode;
}) {
  return (
    <select name={name} value={value} onChange={(e) => onChange(e.target.value)}>
      {first}
      {RELATIVE_RANGES.map((range) => (
        <option key={range.from} value={range.from}>
          {range.label}
        </option>
      ))}
      {last}
    </select>
  );
}
