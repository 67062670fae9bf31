import { isInSnap, playLocationLabel, type PlayCountGame } from '@sagan/shared/playcount';
import { metMinimum } from '@sagan/shared/playcount-minimum';
import { FootballIcon } from './football-icon.tsx';
import { PlayerAvatar } from './player-avatar.tsx';
import { ColHead } from '../../../components/col-head.tsx';

/**
 * SPEC §2 roster table: Jersey, Name, Plays, location, then one column per snap. On a phone a
 * 60+ snap game scrolls sideways inside its frame while Jersey and Name stay put (sticky).
 */
export function RosterTable({ game }: { game: PlayCountGame }) {
  const { roster, snaps, minPlays } = game;
  return (
    <div
      className="table-wrap pc-roster-wrap"
      tabIndex={0}
      role="region"
      aria-label="Plays per player"
    >
      <table className="pc-roster">
        <thead>
          <tr>
            <JerseyNameHeaders />
            <ColHead className="pc-num">Plays</ColHead>
            <ColHead className="pc-location-col">Location</ColHead>
            {snaps.map((snap, i) => (
              <ColHead key={i} className="pc-snap">
                <span className="pc-snap-count">{snap.snapCount}</span>
                <span className="pc-snap-group">{snap.groupName}</span>
              </ColHead>
            ))}
          </tr>
        </thead>
        <tbody>
          {roster.map((player) => {
            const below = metMinimum(player.playCount, minPlays) === false;
            return (
              <tr key={player.key} className={below ? 'pc-below' : undefined}>
                <td className="pc-sticky pc-jersey">{player.jersey}</td>
                <th scope="row" className="pc-sticky pc-name">
                  <span className="pc-player">
                    <PlayerAvatar imageURL={player.imageURL} />
                    <span>
                      {player.playerName}
                      {/* A phone shows the location here, so the snaps start on the screen. */}
                      <span
                        className={`pc-location pc-location-inline pc-location-${player.location}`}
                      >
                        {playLocationLabel(player.location)}
                      </span>
                    </span>
                  </span>
                </th>
                <td className="pc-num">
                  <span className="pc-plays">{player.playCount}</span>
                  {below && <span className="pc-below-badge">Below minimum</span>}
                </td>
                <td className="pc-location-col">
                  <span className={`pc-location pc-location-${player.location}`}>
                    {playLocationLabel(player.location)}
                  </span>
                </td>
                {snaps.map((snap, i) => (
                  <td key={i} className="pc-snap">
                    {isInSnap(snap, player.key) && <FootballIcon />}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The two column headers that stay put while a wide table scrolls sideways. */
export function JerseyNameHeaders() {
  return (
    <>
      <ColHead className="pc-sticky pc-jersey">Jersey</ColHead>
      <ColHead className="pc-sticky pc-name">Name</ColHead>
    </>
  );
}
