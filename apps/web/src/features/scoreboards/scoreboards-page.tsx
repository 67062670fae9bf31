import { Link } from 'react-router';
import { AuthStatus } from '@sagan/shared/auth-status';
import { pathTo } from '@sagan/shared/routes';
import type { GameSummary } from '@sagan/shared/scoreboard-views';
import { ErrorMessage } from '../../components/error-message.tsx';
import { Loading } from '../../components/loading.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { useAuth } from '../../lib/auth.ts';
import { favoritesTopic, myGamesTopic } from '../../lib/viewer-topics.ts';
import { followedTagsTopic } from '../../lib/list-topics.ts';
import { useLive } from '../../lib/realtime.ts';
import { SignInLink } from './components/sign-in-link.tsx';
import { SummaryList } from './components/summary-card.tsx';
import { ScoringList } from '../../components/coscorers/scoring-list.tsx';
import './scoreboards.css';

function Section({
  title,
  result,
  empty,
  children,
  scoreButtons,
}: {
  title: string;
  result: { data: GameSummary[] | undefined; loading: boolean; error: string | undefined };
  empty: string;
  children?: React.ReactNode;
  scoreButtons?: boolean;
}) {
  return (
    <section className="scoreboards-section">
      <h2>{title}</h2>
      {children}
      {result.loading ? (
        <Loading />
      ) : result.error ? (
        <ErrorMessage error={result.error} />
      ) : (
        <SummaryList
          games={result.data ?? []}
          label={title}
          empty={empty}
          scoreButtons={scoreButtons}
        />
      )}
    </section>
  );
}

/** SPEC §2 Scoreboards screen: My Games, Bookmarked Games, Tagged Games. */
export default function ScoreboardsPage() {
  usePageTitle('Scoreboards');
  const { authStatus, user } = useAuth();
  const uid = user?.uid ?? null;
  const mine = useLive(myGamesTopic, uid);
  const favorites = useLive(favoritesTopic, uid);
  const followed = useLive(followedTagsTopic, uid);

  if (authStatus === AuthStatus.Unknown) return <Loading />;
  if (authStatus !== AuthStatus.SignedIn) {
    return (
      <section className="page scoreboards-page">
        <h1>Scoreboards</h1>
        <div className="card">
          <p>
            <SignInLink>Sign in</SignInLink> to see My Games, Bookmarked Games and the Tagged Games
            of tags you follow.
          </p>
          <p className="muted">
            Anyone can watch the community&apos;s games on the{' '}
            <Link to={pathTo('dashboard')}>home page</Link>.
          </p>
        </div>
      </section>
    );
  }
  return (
    <section className="page scoreboards-page">
      <h1>Scoreboards</h1>
      <Section title="My Games" result={mine} empty="Games you score appear here." scoreButtons>
        <p>
          <Link className="btn primary" to={pathTo('newgame')}>
            New game
          </Link>
        </p>
      </Section>
      <ScoringList kind="game" uid={uid} />
      <Section
        title="Bookmarked Games"
        result={{ ...favorites, data: favorites.data?.map((f) => f.game) }}
        empty="Bookmark a game on its scoreboard to find it here."
      />
      <Section
        title="Tagged Games"
        result={{ ...followed, data: followed.data?.games }}
        empty="Follow a tag to see its games here."
      >
        {!!followed.data?.tags.length && (
          <ul className="tag-links" aria-label="Tags you follow">
            {followed.data.tags.map((t) => (
              <li key={t.key}>
                <Link to={pathTo('taggedScoreboards', { tagID: t.key })}>#{t.name}</Link>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </section>
  );
}
