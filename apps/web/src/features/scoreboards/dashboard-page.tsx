import { Link } from 'react-router';
import { countOf } from '@sagan/shared/count-of';
import { pathTo } from '@sagan/shared/routes';
import type { TagSummary } from '@sagan/shared/scoreboard-views';
import { ExternalLink, useHasExternalLink } from '../../components/external-link.tsx';
import { ErrorMessage } from '../../components/error-message.tsx';
import { Loading } from '../../components/loading.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { recentGamesTopic, tagsTopic, upcomingGamesTopic } from '../../lib/list-topics.ts';
import { useLive } from '../../lib/realtime.ts';
import { SummaryList } from './components/summary-card.tsx';
import './scoreboards.css';

const FEATURES = [
  {
    title: 'Scoreboards',
    text: 'Follow live scores from games near you.',
    to: pathTo('scoreboards'),
  },
  {
    title: 'Team Sheets',
    text: 'Rosters, lineups and a shareable page.',
    to: pathTo('teamsheets'),
  },
  { title: 'Play Counting', text: 'See who played how many snaps.', to: pathTo('playcounts') },
] as const;

function TagButtons({ tags, label }: { tags: TagSummary[]; label: string }) {
  if (!tags.length) return <p className="muted">No tags yet.</p>;
  return (
    <ul className="tag-buttons" aria-label={label}>
      {tags.map((t) => (
        <li key={t.key}>
          <Link className="btn tag-button" to={pathTo('taggedScoreboards', { tagID: t.key })}>
            <span className="tag-name">#{t.name}</span>{' '}
            <span className="tag-count">
              {t.gameCount}
              <span className="visually-hidden">
                {' '}
                {countOf(t.gameCount, 'game').replace(/^\S+ /, '')}
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** SPEC §2 Dashboard. */
export default function DashboardPage() {
  usePageTitle(undefined);
  const recent = useLive(recentGamesTopic);
  const tags = useLive(tagsTopic);
  const upcoming = useLive(upcomingGamesTopic);
  const hasApps = useHasExternalLink('apps');
  return (
    <section className="page dashboard">
      <h1 className="visually-hidden">Sagan</h1>
      <ul className="feature-cards">
        {FEATURES.map((f) => (
          <li key={f.title}>
            <Link className="card feature-card" to={f.to}>
              <span className="feature-title">{f.title}</span>
              <span className="muted">{f.text}</span>
            </Link>
          </li>
        ))}
        <li>
          {hasApps ? (
            <ExternalLink to="apps" className="card feature-card">
              <span className="feature-title">Apps</span>
              <span className="muted">Score games and count plays on your phone.</span>
            </ExternalLink>
          ) : (
            // Without the operator's apps link the card is what it opens: the in-browser scorer.
            <Link className="card feature-card" to={pathTo('newgame')}>
              <span className="feature-title">Score a Game</span>
              <span className="muted">Keep score right here in the browser.</span>
            </Link>
          )}
          {hasApps && (
            <Link className="feature-card-extra" to={pathTo('newgame')}>
              Or score a game here in the browser
            </Link>
          )}
        </li>
      </ul>

      <h2>Current Games</h2>
      {recent.loading ? (
        <Loading />
      ) : recent.error ? (
        <ErrorMessage error={recent.error} />
      ) : (
        <SummaryList games={recent.data ?? []} label="Current Games" empty="No games yet." />
      )}

      {/* Shown once there is something scheduled: most days there is not. */}
      {!!upcoming.data?.length && (
        <>
          <h2>Upcoming</h2>
          <SummaryList games={upcoming.data} label="Upcoming" empty="" />
        </>
      )}

      <h2>Tagged Games</h2>
      {tags.loading ? (
        <Loading />
      ) : tags.error ? (
        <ErrorMessage error={tags.error} />
      ) : (
        <div className="tag-groups">
          <div>
            <h3>New Tags</h3>
            <TagButtons tags={tags.data?.newTags ?? []} label="New Tags" />
          </div>
          <div>
            <h3>Popular Tags</h3>
            <TagButtons tags={tags.data?.popularTags ?? []} label="Popular Tags" />
          </div>
        </div>
      )}
    </section>
  );
}
