import type { ReactNode } from 'react';

/** A table's column header, tied to its column (`scope`) so a screen reader names each cell. */
export function ColHead({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <th scope="col" className={className}>
      {children}
    </th>
  );
}
