import { FigureNumber } from '../../../components/figure-number';
import { changeText } from '../../../lib/previous-period';

const shown = (value: number | null) =>
  value === null ? '—' : Number.isInteger(value) ? value.toLocaleString() : value.toLocaleString(undefined, { maximumFractionDigits: 2 });

/** A `metric` chart: one number for the whole window, and the previous period's when compared. */
export function SingleNumber({ value, label, previous }: { value: number | null; label: string; previous?: number | null }) {
  const change = previous === undefined ? undefined : changeText(value, previous);
  return (
    <FigureNumber
      label={label}
      shown={shown(value)}
      {...(previous === undefined ? {} : { note: `Previous period: ${shown(previous)}${change ? ` (${change})` : ''}` })}
    />
  );
}
