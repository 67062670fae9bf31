import type {
  Group,
  GroupMembership,
  Player,
  PublicRoster,
  TeamSheet,
} from '@sagan/shared/teamsheet-schemas';
import { applyPrivacy, type PublicPrivacy } from '@sagan/shared/teamsheet-privacy';
import type { Queryable } from '../../db/db.ts';
import { ownerPhotoPath, publicPhotoPath } from '../photos/public.ts';
import { newKey } from '../../lib/keys.ts';
import { keptWithName } from '../../lib/kept-names.ts';

export interface TeamRow {
  team_key: string;
  uid: string;
  team_name: string;
  team_notes: string;
  active: boolean;
  published_as_key: string | null;
  published: boolean;
}

const TEAM_COLUMNS = `t.team_key, t.uid, t.team_name, t.team_notes, t.active, t.published_as_key,
  EXISTS (SELECT 1 FROM rosters r WHERE r.published_as_key = t.published_as_key) AS published`;

export async function findTeam(q: Queryable, teamKey: string): Promise<TeamRow | undefined> {
  const rows = await q.query<TeamRow>(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.team_key = $1`, [
    teamKey,
  ]);
  return rows[0];
}

/** Locks the team's row until commit: concurrent writers of one team go one at a time. */
export async function lockTeam(q: Queryable, teamKey: string): Promise<void> {
  await q.query('SELECT 1 FROM teams WHERE team_key = $1 FOR UPDATE', [teamKey]);
}

export async function isOwner(q: Queryable, uid: string, teamKey: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM teams WHERE team_key = $1 AND uid = $2', [
    teamKey,
    uid,
  ]);
  return rows.length > 0;
}

interface PlayerRow {
  player_key: string;
  jersey: string;
  player_name: string;
  player_notes: string;
  image_url: string;
  photo_id: string | null;
}

const PLAYER_COLUMNS = 'player_key, jersey, player_name, player_notes, image_url, photo_id';

/** Our photos are named by a URL the reader may use; an imported external URL stays as it is. */
type PhotoUrl = (playerKey: string, photoId: string) => string;

function toPlayer(r: PlayerRow, photoUrl: PhotoUrl): Player {
  return {
    key: r.player_key,
    jersey: r.jersey,
    playerName: r.player_name,
    playerNotes: r.player_notes,
    imageURL: r.photo_id ? photoUrl(r.player_key, r.photo_id) : r.image_url,
  };
}

const ownerUrls =
  (teamKey: string): PhotoUrl =>
  (playerKey, photoId) =>
    ownerPhotoPath(teamKey, playerKey, photoId);

export async function findPlayer(
  q: Queryable,
  teamKey: string,
  playerKey: string,
): Promise<Player | undefined> {
  const rows = await q.query<PlayerRow>(
    `SELECT ${PLAYER_COLUMNS} FROM players WHERE team_key = $1 AND player_key = $2`,
    [teamKey, playerKey],
  );
  return rows[0] && toPlayer(rows[0], ownerUrls(teamKey));
}

async function sheetParts(q: Queryable, teamKey: string, photoUrl: PhotoUrl) {
  const roster = (
    await q.query<PlayerRow>(
      `SELECT ${PLAYER_COLUMNS} FROM players WHERE team_key = $1 ORDER BY player_key`,
      [teamKey],
    )
  ).map((r) => toPlayer(r, photoUrl));
  const groups: Group[] = (
    await q.query<{ group_key: string; group_name: string }>(
      'SELECT group_key, group_name FROM team_groups WHERE team_key = $1 ORDER BY group_name, group_key',
      [teamKey],
    )
  ).map((g) => ({ groupKey: g.group_key, key: g.group_key, groupName: g.group_name }));
  const groupMembership: GroupMembership = {};
  for (const g of groups) groupMembership[g.groupKey] = {};
  const members = await q.query<{ group_key: string; player_key: string; location: number }>(
    'SELECT group_key, player_key, location FROM group_membership WHERE team_key = $1',
    [teamKey],
  );
  for (const m of members) {
    (groupMembership[m.group_key] ??= {})[m.player_key] = {
      location: m.location,
      playerKey: m.player_key,
    };
  }
  return { roster, groups, groupMembership };
}

export async function loadSheet(q: Queryable, team: TeamRow): Promise<TeamSheet> {
  return {
    teamKey: team.team_key,
    teamName: team.team_name,
    teamNotes: team.team_notes,
    active: team.active,
    publishedAsKey: team.published && team.published_as_key ? team.published_as_key : '',
    ...(await sheetParts(q, team.team_key, ownerUrls(team.team_key))),
  };
}

/** The copy publishing stores: photos named through the public sheet, never by their id. */
export async function publicCopy(
  q: Queryable,
  team: TeamRow,
  publishedAsKey: string,
): Promise<PublicRoster> {
  return {
    publishedAsKey,
    teamName: team.team_name,
    teamNotes: team.team_notes,
    ...(await sheetParts(q, team.team_key, (playerKey, photoId) =>
      publicPhotoPath(publishedAsKey, playerKey, photoId),
    )),
  };
}

export async function loadRoster(
  q: Queryable,
  publishedAsKey: string,
): Promise<PublicRoster | null> {
  const rows = await q.query<{ sheet: PublicRoster }>(
    'SELECT sheet FROM rosters WHERE published_as_key = $1',
    [publishedAsKey],
  );
  return rows[0]?.sheet ?? null;
}

/**
 * The public copy as a visitor may see it: the owner's privacy choice applied here,
 * on the server, so full names and photos never leave it when the owner hid them.
 */
export async function loadPublicRoster(
  q: Queryable,
  publishedAsKey: string,
): Promise<PublicRoster | null> {
  const rows = await q.query<
    {
      sheet: PublicRoster;
    } & PrivacyRow
  >(
    `SELECT r.sheet, ${PRIVACY_COLUMNS}
     FROM rosters r LEFT JOIN teams t ON t.team_key = r.team_key
     WHERE r.published_as_key = $1`,
    [publishedAsKey],
  );
  const row = rows[0];
  if (!row) return null;
  return { ...row.sheet, roster: applyPrivacy(row.sheet.roster, privacyOf(row)) };
}

/**
 * Marks the team changed (DESIGN §4: inside the writing transaction) and bumps updated_at.
 * DESIGN §8: a published sheet follows the owner's edits, so its public copy is made again
 * here, by every write to the team, and its open viewers get it at once.
 */
/** What a change to a team sheet touched: topics.ts names who hears of it (audienceOf). */
export interface TeamChange {
  teamKey: string;
  /** Its public copy's key, when published (the copy was rewritten with the change). */
  publishedAsKey: string | null;
}

/** After a change to a team: its updated_at moves and its public copy, if any, follows. */
export async function touchTeam(q: Queryable, teamKey: string): Promise<TeamChange> {
  await q.query('UPDATE teams SET updated_at = now() WHERE team_key = $1', [teamKey]);
  const team = await findTeam(q, teamKey);
  const publishedAsKey = team?.published ? team.published_as_key : null;
  if (team && publishedAsKey) {
    await q.query('UPDATE rosters SET sheet = $2 WHERE published_as_key = $1', [
      publishedAsKey,
      JSON.stringify(await publicCopy(q, team, publishedAsKey)),
    ]);
  }
  return { teamKey, publishedAsKey };
}

interface PrivacyRow {
  public_initials_only: boolean | null;
  public_hide_photos: boolean | null;
  public_hide_notes: boolean | null;
}
const PRIVACY_COLUMNS = 't.public_initials_only, t.public_hide_photos, t.public_hide_notes';

/** A sheet without its team row (never expected) shows nothing it might hide. */
const privacyOf = (row: PrivacyRow | undefined): PublicPrivacy => ({
  initialsOnly: row?.public_initials_only !== false,
  hidePhotos: row?.public_hide_photos !== false,
  hideNotes: row?.public_hide_notes !== false,
});

export async function readPrivacy(q: Queryable, teamKey: string): Promise<PublicPrivacy> {
  const rows = await q.query<PrivacyRow>(
    `SELECT ${PRIVACY_COLUMNS} FROM teams t WHERE t.team_key = $1`,
    [teamKey],
  );
  return privacyOf(rows[0]);
}

/** A choice left out (undefined) keeps its current value. */
export async function writePrivacy(
  q: Queryable,
  teamKey: string,
  privacy: Omit<PublicPrivacy, 'hideNotes'> & { hideNotes?: boolean | undefined },
): Promise<void> {
  await q.query(
    `UPDATE teams SET public_initials_only = $2, public_hide_photos = $3,
       public_hide_notes = COALESCE($4, public_hide_notes), updated_at = now()
     WHERE team_key = $1`,
    [teamKey, privacy.initialsOnly, privacy.hidePhotos, privacy.hideNotes ?? null],
  );
}

/** My teams, and the published sheets I follow (SPEC §2 Team sheets list). */
export async function listTeams(q: Queryable, uid: string) {
  const mine = await q.query<{
    team_key: string;
    team_name: string;
    team_notes: string;
    published_as_key: string | null;
  }>(
    `SELECT t.team_key, t.team_name, t.team_notes, r.published_as_key
     FROM teams t LEFT JOIN rosters r ON r.published_as_key = t.published_as_key
     WHERE t.uid = $1 ORDER BY t.created_at, t.team_key`,
    [uid],
  );
  // Only sheets still published: a View button must lead somewhere.
  const following = await q.query<{ published_as_key: string; team_name: string }>(
    `SELECT f.published_as_key, COALESCE(r.sheet->>'teamName', f.team_name) AS team_name
     FROM favorite_rosters f JOIN rosters r ON r.published_as_key = f.published_as_key
     WHERE f.uid = $1 ORDER BY team_name, f.published_as_key`,
    [uid],
  );
  return {
    mine: mine.map((t) => ({
      teamKey: t.team_key,
      teamName: t.team_name,
      teamNotes: t.team_notes,
      publishedAsKey: t.published_as_key ?? '',
    })),
    following: following.map((f) => ({
      publishedAsKey: f.published_as_key,
      teamName: f.team_name,
    })),
  };
}

/** Creates a team (a retried create is answered by its Idempotency-Key, lib/write.ts). */
export async function createTeam(
  q: Queryable,
  uid: string,
  team: { teamName: string; teamNotes: string },
): Promise<{ teamKey: string; teamName: string; teamNotes: string }> {
  const teamKey = newKey();
  await q.query(
    'INSERT INTO teams (team_key, uid, team_name, team_notes) VALUES ($1, $2, $3, $4)',
    [teamKey, uid, team.teamName, team.teamNotes],
  );
  return { teamKey, ...team };
}

/**
 * Deletes a team and everything it holds: players, groups, its public copy (the link then
 * answers not-found), its followers' entries and the photo rows only it used. The one way a
 * team is deleted (an account deletion deletes its teams through it too). Returns the ids of
 * the photos whose files the caller removes once the transaction has committed, and what the
 * deletion touched (null when there was no such team).
 */
export async function deleteTeam(
  q: Queryable,
  teamKey: string,
): Promise<{ photoIds: string[]; change: TeamChange | null }> {
  const team = await findTeam(q, teamKey);
  if (!team) return { photoIds: [], change: null };
  const photos = await q.query<{ photo_id: string }>(
    'SELECT DISTINCT photo_id FROM players WHERE team_key = $1 AND photo_id IS NOT NULL',
    [teamKey],
  );
  if (team.published_as_key) {
    await q.query('DELETE FROM favorite_rosters WHERE published_as_key = $1', [
      team.published_as_key,
    ]);
  }
  // Players, groups, memberships and the public copy go with it (ON DELETE CASCADE).
  await q.query('DELETE FROM teams WHERE team_key = $1', [teamKey]);
  const gone = await q.query<{ id: string }>(
    `DELETE FROM photos ph WHERE ph.id = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM players p WHERE p.photo_id = ph.id) RETURNING id`,
    [photos.map((p) => p.photo_id)],
  );
  return {
    photoIds: gone.map((r) => r.id),
    change: { teamKey, publishedAsKey: team.published_as_key },
  };
}

/** Saving the name and notes also sets active (SPEC §7). */
export async function updateTeam(
  q: Queryable,
  teamKey: string,
  team: { teamName: string; teamNotes: string },
): Promise<void> {
  await q.query(
    `UPDATE teams SET team_name = $2, team_notes = $3, active = true, updated_at = now()
     WHERE team_key = $1`,
    [teamKey, team.teamName, team.teamNotes],
  );
}

/** Publishing sets the team's public key (assigned once, SPEC §4) and marks it active. */
export async function markPublished(q: Queryable, teamKey: string, publishedAsKey: string) {
  await q.query(
    'UPDATE teams SET published_as_key = $2, active = true, updated_at = now() WHERE team_key = $1',
    [teamKey, publishedAsKey],
  );
}

export async function saveRoster(
  q: Queryable,
  publishedAsKey: string,
  teamKey: string,
  uid: string,
  sheet: unknown,
): Promise<void> {
  await q.query(
    `INSERT INTO rosters (published_as_key, team_key, uid, sheet) VALUES ($1, $2, $3, $4)
     ON CONFLICT (published_as_key)
     DO UPDATE SET sheet = EXCLUDED.sheet, uid = EXCLUDED.uid, published_at = now()`,
    [publishedAsKey, teamKey, uid, JSON.stringify(sheet)],
  );
}

export async function deleteRoster(q: Queryable, teamKey: string): Promise<void> {
  await q.query('DELETE FROM rosters WHERE team_key = $1', [teamKey]);
}

export async function rosterExists(q: Queryable, publishedAsKey: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM rosters WHERE published_as_key = $1', [publishedAsKey]);
  return rows.length > 0;
}

export async function followsRoster(
  q: Queryable,
  uid: string,
  publishedAsKey: string,
): Promise<boolean> {
  const rows = await q.query(
    'SELECT 1 FROM favorite_rosters WHERE uid = $1 AND published_as_key = $2',
    [uid, publishedAsKey],
  );
  return rows.length > 0;
}

/** A follow keeps the sheet's name, refreshed when followed again. */
const follows = keptWithName('favorite_rosters', 'published_as_key', 'team_name');
export const followRoster = follows.keep;
export const unfollowRoster = follows.drop;

/** Group rows of one team. */
export async function countGroups(q: Queryable, teamKey: string): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM team_groups WHERE team_key = $1',
    [teamKey],
  );
  return row?.n ?? 0;
}

export async function insertGroup(
  q: Queryable,
  teamKey: string,
  groupName: string,
): Promise<Group> {
  const groupKey = newKey();
  await q.query('INSERT INTO team_groups (team_key, group_key, group_name) VALUES ($1, $2, $3)', [
    teamKey,
    groupKey,
    groupName,
  ]);
  return { groupKey, key: groupKey, groupName };
}

/** False when the team has no such group. */
export async function renameGroup(
  q: Queryable,
  teamKey: string,
  groupKey: string,
  groupName: string,
): Promise<boolean> {
  const rows = await q.query(
    'UPDATE team_groups SET group_name = $3 WHERE team_key = $1 AND group_key = $2 RETURNING 1',
    [teamKey, groupKey, groupName],
  );
  return rows.length > 0;
}

export async function groupExists(q: Queryable, teamKey: string, groupKey: string) {
  const rows = await q.query('SELECT 1 FROM team_groups WHERE team_key = $1 AND group_key = $2', [
    teamKey,
    groupKey,
  ]);
  return rows.length > 0;
}

export async function setMembership(
  q: Queryable,
  teamKey: string,
  groupKey: string,
  playerKey: string,
  location: number,
): Promise<void> {
  await q.query(
    `INSERT INTO group_membership (team_key, group_key, player_key, location)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (team_key, group_key, player_key) DO UPDATE SET location = EXCLUDED.location`,
    [teamKey, groupKey, playerKey, location],
  );
}

export async function countPlayers(q: Queryable, teamKey: string): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM players WHERE team_key = $1',
    [teamKey],
  );
  return row?.n ?? 0;
}

type PlayerFields = { jersey: string; playerName: string; playerNotes?: string };

/** A new player's key. */
export async function insertPlayer(
  q: Queryable,
  teamKey: string,
  p: PlayerFields,
): Promise<string> {
  const playerKey = newKey();
  await q.query(
    `INSERT INTO players (team_key, player_key, jersey, player_name, player_notes)
     VALUES ($1, $2, $3, $4, $5)`,
    [teamKey, playerKey, p.jersey, p.playerName, p.playerNotes ?? ''],
  );
  return playerKey;
}

/** False when the team has no such player. */
export async function updatePlayer(
  q: Queryable,
  teamKey: string,
  playerKey: string,
  p: PlayerFields,
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE players SET jersey = $3, player_name = $4, player_notes = $5
     WHERE team_key = $1 AND player_key = $2 RETURNING 1`,
    [teamKey, playerKey, p.jersey, p.playerName, p.playerNotes ?? ''],
  );
  return rows.length > 0;
}

/** The deleted player's photo id (null without one), or undefined when there was no player. */
export async function deletePlayer(
  q: Queryable,
  teamKey: string,
  playerKey: string,
): Promise<string | null | undefined> {
  const rows = await q.query<{ photo_id: string | null }>(
    'DELETE FROM players WHERE team_key = $1 AND player_key = $2 RETURNING photo_id',
    [teamKey, playerKey],
  );
  return rows[0] ? rows[0].photo_id : undefined;
}

/** Like deletePlayer's answer: the current photo id, or undefined when there is no player. */
export async function playerPhotoId(
  q: Queryable,
  teamKey: string,
  playerKey: string,
): Promise<string | null | undefined> {
  const rows = await q.query<{ photo_id: string | null }>(
    'SELECT photo_id FROM players WHERE team_key = $1 AND player_key = $2',
    [teamKey, playerKey],
  );
  return rows[0] ? rows[0].photo_id : undefined;
}

/** An imported external URL gives way to the uploaded photo. */
export async function setPlayerPhoto(
  q: Queryable,
  teamKey: string,
  playerKey: string,
  photoId: string,
): Promise<void> {
  await q.query(
    `UPDATE players SET photo_id = $3, image_url = '' WHERE team_key = $1 AND player_key = $2`,
    [teamKey, playerKey, photoId],
  );
}
