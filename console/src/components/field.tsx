import type { ReactNode } from 'react';

/** A labelled form field with a hint, and the API's reason for refusing it, if it did, shown beside it. */
export function Field({ label, problem, hint, children }: { label: ReactNode; problem?: string; hint?: ReactNode; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control comes in as children
    <label className={problem ? 'field invalid' : 'field'}>
      {label}
      {children}
      {hint && <span className="muted field-hint">{hint}</span>}
      {problem && (
        <span className="field-problem" role="alert">
          {problem}
        </span>
      )}
    </label>
  );
}
