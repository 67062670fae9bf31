import { useParams } from 'react-router';
import { ErrorMessage } from '../../components/error-message.tsx';
import { Loading } from '../../components/loading.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { keyReader } from '../../lib/shell-readers.ts';
import { tagTopic } from '../../lib/list-topics.ts';
import { useLive } from '../../lib/realtime.ts';
import { FollowToggle } from './components/follow-toggle.tsx';
import { SummaryList } from './components/summary-card.tsx';
import './scoreboards.css';

/** SPEC §2 Tagged scoreboards: 'Scoreboards Tagged #name' and the cards. */
export default function TaggedScoreboardsPage() {
  const { tagID = '' } = useParams();
  const validKey = keyReader.safeParse(tagID).success;
  const tag = useLive(tagTopic, validKey ? tagID : '-');
  usePageTitle(tag.data ? `#${tag.data.tag.name}` : 'Tagged Scoreboards');
  if (!validKey) return <NotFound what="tag" />;
  if (tag.loading) return <Loading />;
  if (tag.error) return <ErrorMessage error={tag.error} />;
  if (!tag.data) return <NotFound what="tag" />;
  const { name } = tag.data.tag;
  return (
    <section className="page tagged-page">
      <div className="tagged-head">
        <h1>Scoreboards Tagged #{name}</h1>
        <FollowToggle tagID={tagID} name={name} />
      </div>
      {!!tag.data.upcoming?.length && (
        <>
          <h2>Upcoming</h2>
          <SummaryList
            games={tag.data.upcoming}
            label={`Upcoming games tagged #${name}`}
            empty=""
          />
          <h2>Games</h2>
        </>
      )}
      <SummaryList
        games={tag.data.games}
        label={`Games tagged #${name}`}
        empty="No games under this tag yet."
      />
    </section>
  );
}
