import { Link, useParams } from 'react-router';
import { topics } from '@sagan/shared/realtime';
import { pathTo } from '@sagan/shared/routes';
import { publicRosterSchema } from '@sagan/shared/teamsheet-schemas';
import { ApiError } from '../../lib/api.ts';
import { useTopic } from '../../lib/realtime.ts';
import { Loading } from '../../components/loading.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { ErrorMessage } from '../../components/error-message.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { useRoster } from './api.ts';
import { Avatar } from './avatar.tsx';
import { useNoIndex } from './use-noindex.ts';
import './teamsheets.css';

export default function TeamSheetPlayerPage() {
  useNoIndex();
  const { publishedAsKey = '', playerKey = '' } = useParams();
  const roster = useRoster(publishedAsKey);
  const live = useTopic(topics.roster(publishedAsKey), publicRosterSchema.nullable());
  const sheet = live.data !== undefined ? live.data : roster.data;
  const player = sheet?.roster.find((p) => p.key === playerKey);
  usePageTitle(player ? `#${player.jersey} - ${player.playerName}` : 'Player');

  if (sheet === undefined && roster.isPending) return <Loading />;
  if (sheet === null || (roster.error instanceof ApiError && roster.error.status === 404)) {
    return <NotFound what="team sheet" />;
  }
  if (!sheet) return <ErrorMessage error={roster.error} />;
  if (!player) return <NotFound what="player" />;
  return (
    <section className="page narrow player-view">
      <p>
        <Link to={pathTo('teamsheet', { publishedAsKey })}>← {sheet.teamName}</Link>
      </p>
      <p className="muted team-name">{sheet.teamName}</p>
      <h1>{`#${player.jersey} - ${player.playerName}`}</h1>
      <Avatar src={player.imageURL} alt={player.playerName} height={240} />
      {player.playerNotes && <p className="player-notes">{player.playerNotes}</p>}
    </section>
  );
}
