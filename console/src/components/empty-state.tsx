import type { ReactNode } from 'react';

/** What an empty list says: what to send or change to see something here. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <h2>{title}</h2>
      {children}
    </div>
  );
}
