import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AuthStatus } from '@sagan/shared/auth-status';
import { pathTo } from '@sagan/shared/routes';
import { matchesSearch } from '@sagan/shared/roster-view';
import { useLive } from '../../lib/realtime.ts';
import { rosterTopic } from '../../lib/roster-topic.ts';
import { ExternalLink } from '../../components/external-link.tsx';
import { Loading } from '../../components/loading.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { ErrorMessage } from '../../components/error-message.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { useAuth } from '../../lib/auth.ts';
import { useFollowState } from './follow-state.ts';
import { RosterTable } from './roster-table.tsx';
import { ShareLink } from './share-link.tsx';
import { StarIcon } from './icons.tsx';
import { useNoIndex } from './use-noindex.ts';
import './teamsheets.css';

export default function TeamSheetPage() {
  useNoIndex();
  const { publishedAsKey = '' } = useParams();
  // The sheet is live (the owner's republish or unpublish reaches an open page); only whether
  // the signed-in user follows it is the user's own, read over the API.
  const live = useLive(rosterTopic, publishedAsKey);
  const follow = useFollowState(publishedAsKey, !!live.data);
  const [search, setSearch] = useState('');
  const sheet = live.data;
  usePageTitle(sheet?.teamName ?? 'Team sheet');

  if (live.loading) return <Loading />;
  if (live.error) return <ErrorMessage error={live.error} />;
  if (!sheet) return <NotFound what="team sheet" />;

  const shown = sheet.roster.filter((p) => matchesSearch(p.playerName, search));
  return (
    <section className="page teamsheet-view">
      <header className="team-head">
        <div className="team-title">
          <FollowToggle publishedAsKey={publishedAsKey} {...follow} />
          <h1>{sheet.teamName}</h1>
        </div>
        <p className="team-notes">{sheet.teamNotes}</p>
      </header>
      {/* Near the top, so sharing a long roster does not mean scrolling past it. */}
      <ShareLink publishedAsKey={sheet.publishedAsKey} qrOpen={false} />
      <label htmlFor="search" className="visually-hidden">
        Search players by name
      </label>
      <input
        id="search"
        type="search"
        placeholder="Search..."
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        className="search"
      />
      {shown.length === 0 ? (
        <p className="muted">{search ? 'No player matches your search.' : 'No players yet.'}</p>
      ) : (
        <RosterTable
          caption={`${sheet.teamName} roster`}
          roster={shown}
          groups={sheet.groups}
          membership={sheet.groupMembership}
          rowLink
          nameCell={(p) => (
            // Its box covers the whole row (CSS), so a tap anywhere on the row opens the player,
            // while keyboards and screen readers still meet one ordinary link.
            <Link
              className="row-link"
              to={pathTo('teamsheetPlayer', { publishedAsKey, playerKey: p.key })}
            >
              {p.playerName}
            </Link>
          )}
        />
      )}
      <footer className="find-out-more card">
        <p>
          Made with Sagan team sheets: rosters, lineups and player photos, shared by link or QR
          code. <ExternalLink to="apps">Find out more</ExternalLink>
        </p>
      </footer>
    </section>
  );
}

function FollowToggle({
  publishedAsKey,
  followed,
  toggle: follow,
}: {
  publishedAsKey: string;
} & ReturnType<typeof useFollowState>) {
  const { authStatus } = useAuth();
  const navigate = useNavigate();
  const on = followed === true;
  // Until the app knows who is asking (and, signed in, whether they follow already), a tap
  // could only guess: it would send a signed-in parent to Login, or follow twice.
  const unknown =
    authStatus === AuthStatus.Unknown || (authStatus === AuthStatus.SignedIn && followed === null);
  return (
    <>
      <button
        type="button"
        className={`icon-btn star${on ? ' on' : ''}`}
        aria-pressed={on}
        aria-label="Follow this team sheet"
        disabled={follow.isPending || unknown}
        onClick={() => {
          if (authStatus !== AuthStatus.SignedIn) {
            const next = pathTo('teamsheet', { publishedAsKey });
            navigate(`${pathTo('Login')}?next=${encodeURIComponent(next)}`);
            return;
          }
          follow.mutate(!on);
        }}
      >
        <StarIcon filled={on} />
      </button>
      {follow.error && <ErrorMessage error={follow.error} />}
    </>
  );
}
