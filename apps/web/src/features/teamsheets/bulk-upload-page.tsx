import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import {
  bulkRowProblem,
  bulkRowWarnings,
  isBlankRow,
  parseBulkUpload,
  type BulkRow,
} from '@sagan/shared/bulk-upload';
import { MAX_BULK_ROWS } from '@sagan/shared/teamsheet-schemas';
import { Loading } from '../../components/loading.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { ErrorMessage } from '../../components/error-message.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { useBulkUpload, useTeam } from './api.ts';
import './teamsheets.css';

export default function BulkUploadPage() {
  const { teamKey = '' } = useParams();
  usePageTitle('Bulk Upload');
  const team = useTeam(teamKey);
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<BulkRow[] | null>(null);
  const upload = useBulkUpload(teamKey);

  if (team.loading) return <Loading />;
  // Refused (not this user's team, or no such team) or deleted: not found, either way.
  if (!team.data) return <NotFound what="team sheet" />;

  const rows = preview ?? [];
  // Only lines that would become players count as players; the others are listed to fix.
  const lines = rows.map((row, i) => ({ row, line: i + 1, problem: bulkRowProblem(row) }));
  const players = lines.filter((l) => !l.problem);
  const problems = lines.filter((l) => l.problem && !isBlankRow(l.row));
  const warnings = bulkRowWarnings(rows, team.data.roster);
  const back = () => navigate(pathTo('teamsheetedit', { teamKey }));

  return (
    <section className="page bulk-upload">
      <p>
        <Link to={pathTo('teamsheetedit', { teamKey })}>← {team.data.teamName}</Link>
      </p>
      <h1>Bulk Upload</h1>
      <label htmlFor="bulk">Players</label>
      <textarea
        id="bulk"
        rows={14}
        cols={80}
        value={text}
        spellCheck={false}
        aria-describedby="bulk-help"
        onChange={(e) => {
          setText(e.target.value);
          setPreview(null);
        }}
      />
      <p id="bulk-help" className="help">
        The first column should be the player's jersey number followed by their name.
      </p>
      <div className="btn-row">
        <button
          type="button"
          className="btn primary"
          onClick={() => setPreview(parseBulkUpload(text))}
        >
          Preview
        </button>
      </div>

      {preview && (
        <>
          <h2>Preview</h2>
          <div aria-live="polite">
            <p>
              {players.length} {players.length === 1 ? 'player' : 'players'} to add.
            </p>
            {problems.length > 0 && (
              <div className="bulk-problems">
                <p className="form-error">
                  {problems.length} {problems.length === 1 ? 'line' : 'lines'} to fix before saving:
                </p>
                <ul>
                  {problems.map((l) => (
                    <li key={l.line}>
                      Line {l.line}: {l.problem}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {warnings.size > 0 && (
              <div className="bulk-problems">
                <p className="form-warning">
                  {warnings.size === 1 ? '1 line repeats' : `${warnings.size} lines repeat`} a
                  jersey. Save adds them anyway; change them above if that is not what you meant:
                </p>
                <ul>
                  {[...warnings].map(([line, warning]) => (
                    <li key={line}>
                      Line {line}: {warning}
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
          <div className="table-wrap">
            <table className="bulk-preview">
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Jersey</th>
                  <th scope="col">Name</th>
                  <th scope="col">Check</th>
                </tr>
              </thead>
              <tbody>
                {lines.map(({ row: r, line, problem }) => {
                  const blank = isBlankRow(r);
                  const warning = warnings.get(line);
                  return (
                    <tr key={line} className={blank ? 'blank' : problem ? 'problem' : undefined}>
                      <td>{line}</td>
                      <td>{r.jersey}</td>
                      <td>{r.playerName}</td>
                      <td
                        className={
                          problem && !blank ? 'form-error' : warning ? 'form-warning' : 'muted'
                        }
                      >
                        {/* The list above says which jersey and where; the cell stays short. */}
                        {problem ?? (warning ? 'Same jersey' : 'OK')}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {players.length > MAX_BULK_ROWS && (
            <p className="form-error">At most {MAX_BULK_ROWS} players can be added at once.</p>
          )}
          <ErrorMessage error={upload.error} />
          <div className="btn-row">
            <button
              type="button"
              className="btn primary"
              disabled={
                upload.isPending ||
                problems.length > 0 ||
                !players.length ||
                players.length > MAX_BULK_ROWS
              }
              onClick={() => {
                if (!upload.isPending) upload.mutate({ text }, { onSuccess: back });
              }}
            >
              Save
            </button>
            <button type="button" className="btn" onClick={back}>
              Cancel
            </button>
          </div>
        </>
      )}
    </section>
  );
}
