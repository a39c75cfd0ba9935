import type { ReactNode } from 'react';

/** A labelled form field with the API's reason for refusing it, if it did, shown beside it. */
export function Field({ label, problem, children }: { label: ReactNode; problem?: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control comes in as children
    <label className={problem ? 'field invalid' : 'field'}>
      {label}
      {children}
      {problem && (
        <span className="field-problem" role="alert">
          {problem}
        </span>
      )}
    </label>
  );
}
