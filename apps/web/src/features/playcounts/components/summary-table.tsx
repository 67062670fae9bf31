import type { Snap } from '@sagan/shared/playcount';
import { QUARTERS, quarterSummary } from '@sagan/shared/playcount-summary';

/** SPEC §2 summary: snaps per group in Qtr 1 to Qtr 4 (SPEC §9; headed 'Group', DESIGN §8). */
export function SummaryTable({ snaps }: { snaps: readonly Snap[] }) {
  const rows = quarterSummary(snaps);
  if (!rows.length) return <p className="muted">No snaps counted yet.</p>;
  return (
    <div className="table-wrap pc-summary-wrap">
      <table className="pc-summary">
        <thead>
          <tr>
            <th scope="col">Group</th>
            {QUARTERS.map((q) => (
              <th scope="col" key={q} className="pc-num">
                Qtr {q}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.groupName}>
              <th scope="row">{row.groupName}</th>
              {row.quarters.map((n, i) => (
                <td key={i} className="pc-num">
                  {n}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
