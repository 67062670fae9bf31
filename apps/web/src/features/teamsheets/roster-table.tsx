import type { ReactNode } from 'react';
import { sortRoster } from '@sagan/shared/roster-view';
import type { Group, GroupMembership, Player } from '@sagan/shared/teamsheet-schemas';
import { Avatar } from './avatar.tsx';
import { GroupBadges } from './group-badges.tsx';

/** The columns every roster table of a sheet opens with: photo, jersey, name. */
export function PlayerHeads() {
  return (
    <>
      <th scope="col" className="avatar-cell">
        <span className="visually-hidden">Photo</span>
      </th>
      <th scope="col">Jersey</th>
      <th scope="col">Name</th>
    </>
  );
}

/** A player's first two cells under PlayerHeads: photo and jersey (the name cell varies). */
export function PhotoJerseyCells({ player }: { player: Pick<Player, 'imageURL' | 'jersey'> }) {
  return (
    <>
      <td className="avatar-cell">
        <Avatar src={player.imageURL} />
      </td>
      <td className="jersey">{player.jersey}</td>
    </>
  );
}

/** SPEC §2 roster table: avatar, jersey, name, notes, an action, group badges; by jersey. */
export function RosterTable({
  roster,
  groups,
  membership,
  caption,
  nameCell,
  action,
  rowLink = false,
}: {
  roster: Player[];
  groups: Group[];
  membership: GroupMembership;
  caption: string;
  nameCell?: (p: Player) => ReactNode;
  action?: (p: Player) => ReactNode;
  /** The name cell's link opens the player from anywhere on the row. */
  rowLink?: boolean;
}) {
  return (
    <div className="table-wrap">
      <table className={rowLink ? 'roster row-links' : 'roster'}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <PlayerHeads />
            <th scope="col" className="notes-col">
              Notes
            </th>
            {action && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
            <th scope="col" className="groups-col">
              Groups
            </th>
          </tr>
        </thead>
        <tbody>
          {sortRoster(roster).map((p) => (
            <tr key={p.key}>
              <PhotoJerseyCells player={p} />
              <td className="name-cell">
                {nameCell ? nameCell(p) : p.playerName}
                {/* Phones hide the notes column; the notes move under the name. */}
                {p.playerNotes && <span className="notes-inline">{p.playerNotes}</span>}
                {/* And the group badges, which a Groups column at the right edge would hide
                    off the screen. */}
                <div className="groups-inline">
                  <GroupBadges playerKey={p.key} groups={groups} membership={membership} />
                </div>
              </td>
              <td className="notes-col">{p.playerNotes}</td>
              {action && <td>{action(p)}</td>}
              <td className="groups-col">
                <GroupBadges playerKey={p.key} groups={groups} membership={membership} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
