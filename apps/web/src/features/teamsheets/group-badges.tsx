import { playerBadges } from '@sagan/shared/roster-view';
import type { Group, GroupMembership } from '@sagan/shared/teamsheet-schemas';

/** SPEC §2: a badge per group where the player is Playing (1) or Sideline (2). */
export function GroupBadges({
  playerKey,
  groups,
  membership,
}: {
  playerKey: string;
  groups: Group[];
  membership: GroupMembership;
}) {
  const badges = playerBadges(playerKey, groups, membership);
  if (!badges.length) return null;
  return (
    <ul className="badges">
      {badges.map((b) => (
        <li
          key={b.groupKey}
          className={`badge ${b.style}`}
          title={`${b.groupName}: ${b.style === 'playing' ? 'Playing' : 'Sideline'}`}
        >
          {b.groupName}
        </li>
      ))}
    </ul>
  );
}
