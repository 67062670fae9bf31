import { Link, useNavigate } from 'react-router';
import { AuthStatus } from '@sagan/shared/auth-status';
import { pathTo } from '@sagan/shared/routes';
import { useAuth } from '../../lib/auth.ts';
import { Loading } from '../../components/loading.tsx';
import { ErrorMessage } from '../../components/error-message.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { useCreateTeam, useTeams } from './api.ts';
import './teamsheets.css';
import { WriteButton } from '../../components/write-button.tsx';

export default function TeamSheetsPage() {
  usePageTitle('Team Sheets');
  const { authStatus } = useAuth();
  const signedIn = authStatus === AuthStatus.SignedIn;
  const teams = useTeams(signedIn);
  const create = useCreateTeam();
  const navigate = useNavigate();

  if (authStatus === AuthStatus.Unknown) return <Loading />;
  if (!signedIn) {
    return (
      <section className="page narrow teamsheets">
        <h1>Team Sheets</h1>
        <p>
          Keep your roster, lineups and player photos in one place, and share a team sheet with
          parents and fans through a link or a QR code.
        </p>
        <p>
          <Link className="btn primary" to={`${pathTo('Login')}?next=${pathTo('teamsheets')}`}>
            Sign in to see your teams
          </Link>
        </p>
      </section>
    );
  }

  return (
    <section className="page teamsheets">
      <h1>Team Sheets</h1>
      <h2>My Teams</h2>
      {teams.isPending ? (
        <Loading />
      ) : teams.error ? (
        <ErrorMessage error={teams.error} />
      ) : teams.data.mine.length === 0 ? (
        <p className="muted">You have no teams yet.</p>
      ) : (
        <ul className="team-list">
          {teams.data.mine.map((t) => (
            <li key={t.teamKey} className="card team-item">
              <div>
                <h3>{t.teamName}</h3>
                <p className="muted">{t.teamNotes}</p>
              </div>
              <div className="btn-row">
                {t.publishedAsKey && (
                  <ViewSheetLink publishedAsKey={t.publishedAsKey} teamName={t.teamName} />
                )}
                <Link
                  className="btn"
                  to={pathTo('teamsheetedit', { teamKey: t.teamKey })}
                  aria-label={`Edit ${t.teamName}`}
                >
                  Edit
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="btn-row">
        <WriteButton
          write={create}
          className="btn primary"
          onClick={() => {
            if (create.isPending) return;
            create.mutate(undefined, {
              onSuccess: (t) => navigate(pathTo('teamsheetedit', { teamKey: t.teamKey })),
            });
          }}
        >
          Create New Team
        </WriteButton>
      </div>
      <ErrorMessage error={create.error} />

      <h2>Following</h2>
      {teams.data && teams.data.following.length === 0 && (
        <p className="muted">
          You follow no team sheets yet. Open a shared team sheet and tap its star to follow it.
        </p>
      )}
      {teams.data && teams.data.following.length > 0 && (
        <ul className="team-list">
          {teams.data.following.map((f) => (
            <li key={f.publishedAsKey} className="card team-item">
              <h3>{f.teamName}</h3>
              <div className="btn-row">
                <ViewSheetLink publishedAsKey={f.publishedAsKey} teamName={f.teamName} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A team's published sheet, as its fans see it: from one's own teams or the ones followed. */
function ViewSheetLink({ publishedAsKey, teamName }: { publishedAsKey: string; teamName: string }) {
  return (
    <Link
      className="btn"
      to={pathTo('teamsheet', { publishedAsKey })}
      aria-label={`View ${teamName}`}
    >
      View
    </Link>
  );
}
