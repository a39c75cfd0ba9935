/** A `metric` chart: one number for the whole window. */
export function SingleNumber({ value, label }: { value: number | null; label: string }) {
  const shown = value === null ? '—' : Number.isInteger(value) ? value.toLocaleString() : value.toLocaleString(undefined, { maximumFractionDigits: 2 });
  return (
    <figure className="single-number" aria-label={label}>
      <output>{shown}</output>
      <figcaption>{label}</figcaption>
    </figure>
  );
}
