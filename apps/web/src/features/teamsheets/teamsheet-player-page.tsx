import { Link, useParams } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import { useLive } from '../../lib/realtime.ts';
import { rosterTopic } from '../../lib/roster-topic.ts';
import { Loading } from '../../components/loading.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { ErrorMessage } from '../../components/error-message.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { Avatar } from './avatar.tsx';
import { useNoIndex } from './use-noindex.ts';
import './teamsheets.css';

export default function TeamSheetPlayerPage() {
  useNoIndex();
  const { publishedAsKey = '', playerKey = '' } = useParams();
  const live = useLive(rosterTopic, publishedAsKey);
  const sheet = live.data;
  const player = sheet?.roster.find((p) => p.key === playerKey);
  usePageTitle(player ? `#${player.jersey} - ${player.playerName}` : 'Player');

  if (live.loading) return <Loading />;
  if (live.error) return <ErrorMessage error={live.error} />;
  if (!sheet) return <NotFound what="team sheet" />;
  if (!player) return <NotFound what="player" />;
  return (
    <section className="page narrow player-view">
      <p>
        <Link to={pathTo('teamsheet', { publishedAsKey })}>← {sheet.teamName}</Link>
      </p>
      <p className="muted team-name">{sheet.teamName}</p>
      <h1>{`#${player.jersey} - ${player.playerName}`}</h1>
      <Avatar src={player.imageURL} alt={player.playerName} height={240} main />
      {player.playerNotes && <p className="player-notes">{player.playerNotes}</p>}
    </section>
  );
}
