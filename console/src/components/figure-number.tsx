import type { ReactNode } from 'react';

/** One headline number with its label and, below, a note (the previous period's value or change). */
export function FigureNumber({ label, shown, note }: { label: string; shown: string; note?: ReactNode }) {
  return (
    <figure className="single-number" aria-label={label}>
      <output>{shown}</output>
      <figcaption>{label}</figcaption>
      {note !== undefined && <p className="muted previous-period">{note}</p>}
    </figure>
  );
}
