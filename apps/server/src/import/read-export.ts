import { z } from 'zod';
import { keySchema } from '@sagan/shared/keys';
import { gameCommentInputSchema, scoreboardFieldsSchema } from '@sagan/shared/scoreboard';
import { playCountGameInputSchema } from '@sagan/shared/playcount';
import { sportName as sportNameOf } from '@sagan/shared/sports';
import { playerSchema, type PublicRoster } from '@sagan/shared/teamsheet-schemas';

// Turns a Firebase Realtime Database JSON export laid out as SPEC §7's paths into rows for
// our tables. Pure (no database), so every rule here is unit-tested. Every key of the export
// is kept as it is, so old links and printed QR codes keep working.

/** Something the importer could not load (or loaded differently), with the export path. */
export interface Problem {
  path: string;
  reason: string;
}

interface UserRow {
  uid: string;
  displayName: string | null;
  email: string | null;
  lastLogin: string | null;
}
interface GameRow {
  gameKey: string;
  uid: string;
  fields: Record<string, unknown>;
  timeStamp: number;
}
interface CommentRow {
  gameKey: string;
  /** The Firebase child key, kept inside the comment so a second run finds it again. */
  importKey: string;
  comment: Record<string, unknown>;
}
interface TagRow {
  tagKey: string;
  name: string;
  serverTimeStamp: number;
}
interface TeamRow {
  teamKey: string;
  uid: string;
  teamName: string;
  teamNotes: string;
  active: boolean;
  publishedAsKey: string | null;
  players: {
    playerKey: string;
    jersey: string;
    playerName: string;
    playerNotes: string;
    imageURL: string;
  }[];
  groups: { groupKey: string; groupName: string }[];
  membership: { groupKey: string; playerKey: string; location: number }[];
}
interface RosterRow {
  publishedAsKey: string;
  teamKey: string;
  uid: string;
  sheet: PublicRoster;
}
interface PlayCountRow {
  gameKey: string;
  uid: string;
  game: { gameName: string; gameDate: string; roster: unknown[]; snaps: unknown[] };
  archived: boolean;
}

export interface ImportPlan {
  product: string;
  users: UserRow[];
  games: GameRow[];
  comments: CommentRow[];
  tags: TagRow[];
  gameTags: { gameKey: string; tagKey: string }[];
  favoriteScoreboards: { uid: string; gameKey: string; gameName: string }[];
  followedTags: { uid: string; tagKey: string }[];
  teams: TeamRow[];
  rosters: RosterRow[];
  favoriteRosters: { uid: string; publishedAsKey: string; teamName: string }[];
  playCounts: PlayCountRow[];
  /** Records not loaded, and why. */
  problems: Problem[];
  /** Records loaded with a change worth knowing about (an ignored field, a placeholder owner). */
  warnings: Problem[];
}

export interface ReadOptions {
  /** The `{product}` folder name; found automatically when the export has exactly one. */
  product?: string;
  /** Old uid → new uid (see docs/import.md); uids not listed are kept as they are. */
  uidMap?: Record<string, string>;
}

/** Owner of games nobody lists: no sign-in can produce this uid (not `local-`, not digits). */
export const UNOWNED_UID = 'import:unowned';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Firebase stores arrays as objects keyed 0..n (or as arrays with holes): both become entries. */
function entries(v: unknown): [string, unknown][] {
  if (Array.isArray(v)) return v.flatMap((x, i) => (x == null ? [] : [[String(i), x]]));
  return isObj(v) ? Object.entries(v) : [];
}
const str = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
const validKey = (k: string) => keySchema.safeParse(k).success;
const zodReason = (e: z.ZodError) =>
  e.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');

const BOOLEAN_FIELDS = new Set(
  Object.entries(scoreboardFieldsSchema.shape)
    .filter(([, s]) => s instanceof z.ZodBoolean)
    .map(([k]) => k),
);
const NUMBER_FIELDS = new Set(
  Object.entries(scoreboardFieldsSchema.shape)
    .filter(([, s]) => s instanceof z.ZodNumber)
    .map(([k]) => k),
);
/** Fields of `top` that are not scoreboard fields but are understood. */
const TOP_META = new Set(['timeStamp', 'uid', 'gameKey', 'key']);

/** Realtime-database exports often hold numbers as strings ("3") and flags as 0/1. */
function normaliseTop(top: Obj): { fields: Obj; ignored: string[] } {
  const fields: Obj = {};
  const ignored: string[] = [];
  for (const [k, v] of Object.entries(top)) {
    if (TOP_META.has(k)) continue;
    if (!(k in scoreboardFieldsSchema.shape)) {
      ignored.push(k);
      continue;
    }
    if (NUMBER_FIELDS.has(k)) fields[k] = num(v) ?? v;
    else if (BOOLEAN_FIELDS.has(k))
      fields[k] =
        v === 1 || v === '1' || v === 'true'
          ? true
          : v === 0 || v === '0' || v === 'false'
            ? false
            : v;
    else fields[k] = typeof v === 'number' ? String(v) : v;
  }
  return { fields, ignored };
}

/** Picks the `{product}` folder: the top-level key (not users/teams/rosters/gamesPC) holding games or sports. */
export function findProduct(root: Obj): string | null {
  const known = new Set(['users', 'teams', 'rosters', 'gamesPC']);
  const candidates = Object.keys(root).filter(
    (k) =>
      !known.has(k) &&
      isObj(root[k]) &&
      ('games' in (root[k] as Obj) || 'sports' in (root[k] as Obj) || 'tags' in (root[k] as Obj)),
  );
  return candidates.length === 1 ? (candidates[0] ?? null) : null;
}

export function readExport(root: unknown, opts: ReadOptions = {}): ImportPlan {
  if (!isObj(root)) throw new Error('The export is not a JSON object');
  const product = opts.product ?? findProduct(root);
  if (!product) {
    throw new Error(
      'Could not tell which top-level folder is {product} (the one holding games, sports and tags); pass --product <name>',
    );
  }
  const uidMap = opts.uidMap ?? {};
  const mapUid = (uid: string) => uidMap[uid] ?? uid;
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const fail = (path: string, reason: string) => problems.push({ path, reason });
  const warn = (path: string, reason: string) => warnings.push({ path, reason });

  /**
   * The records of a top-level keyed collection, each with its path for problems; one under a
   * key no link could reach, or that is not an object, is reported and passed over.
   */
  function* keyedRecords(
    collection: string,
    v: unknown,
  ): Generator<[key: string, record: Record<string, unknown>, path: string]> {
    for (const [key, record] of entries(v)) {
      const path = `${collection}/${key}`;
      if (!validKey(key)) fail(path, 'the key is not URL-safe, so no link could reach it');
      else if (!isObj(record)) fail(path, 'not an object');
      else yield [key, record, path];
    }
  }

  const productRoot = isObj(root[product]) ? root[product] : {};
  const usersRoot = isObj(root.users) ? root.users : {};
  const users = new Map<string, UserRow>();
  const ensureUser = (uid: string) => {
    if (!users.has(uid)) users.set(uid, { uid, displayName: null, email: null, lastLogin: null });
    return users.get(uid) as UserRow;
  };

  // users/{uid}: lastLogin (SPEC §3: ms as a string) and the lists that name owners.
  const gameOwner = new Map<string, string>();
  const playCountOwner = new Map<string, string>();
  const teamOwner = new Map<string, string>();
  for (const [rawUid, u] of Object.entries(usersRoot)) {
    const path = `users/${rawUid}`;
    if (!isObj(u)) {
      fail(path, 'not an object');
      continue;
    }
    const uid = mapUid(rawUid);
    const row = ensureUser(uid);
    row.lastLogin = str(u.lastLogin);
    row.displayName = str(u.displayName) ?? str(u.name);
    row.email = str(u.email);
    const own = isObj(u[product]) ? (u[product] as Obj).games : undefined;
    for (const [gameKey] of entries(own)) gameOwner.set(gameKey, uid);
    for (const [gameKey] of entries(u.gamesPC)) playCountOwner.set(gameKey, uid);
    for (const [teamKey] of entries(u.teams)) teamOwner.set(teamKey, uid);
  }

  // {product}/sports: the catalogue is built in (SPEC §3); differences are reported, not loaded.
  for (const [id, s] of entries(productRoot.sports)) {
    const name = isObj(s) ? str(s.name) : str(s);
    const builtIn = sportNameOf(Number(id));
    if (name && name !== builtIn) {
      warn(
        `${product}/sports/${id}`,
        `sport '${name}' is shown as '${builtIn}' (the catalogue is built in)`,
      );
    }
  }

  // {product}/games/{gameKey}/top, /comments, /tags
  const games: GameRow[] = [];
  const comments: CommentRow[] = [];
  const tags = new Map<string, TagRow>();
  const gameTags: { gameKey: string; tagKey: string }[] = [];
  const loadedGames = new Set<string>();
  for (const [gameKey, g] of entries(productRoot.games)) {
    const path = `${product}/games/${gameKey}`;
    if (!validKey(gameKey)) {
      fail(
        path,
        'the key is not URL-safe (letters, digits, _ and - only), so no link could reach it',
      );
      continue;
    }
    if (!isObj(g) || !isObj(g.top)) {
      fail(path, 'has no top (the scoreboard fields)');
      continue;
    }
    const { fields, ignored } = normaliseTop(g.top);
    const parsed = scoreboardFieldsSchema.partial().safeParse(fields);
    if (!parsed.success) {
      fail(`${path}/top`, zodReason(parsed.error));
      continue;
    }
    if (ignored.length)
      warn(`${path}/top`, `fields not part of a scoreboard ignored: ${ignored.join(', ')}`);
    let uid = gameOwner.get(gameKey) ?? (str(g.top.uid) ? mapUid(str(g.top.uid) as string) : null);
    if (!uid) {
      warn(
        path,
        `no user lists this game under users/{uid}/${product}/games; loaded with owner '${UNOWNED_UID}' so its link keeps working`,
      );
      uid = UNOWNED_UID;
    }
    ensureUser(uid);
    games.push({ gameKey, uid, fields: parsed.data, timeStamp: num(g.top.timeStamp) ?? 0 });
    loadedGames.add(gameKey);
    for (const [commentKey, c] of entries(g.comments).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    )) {
      const cp = `${path}/comments/${commentKey}`;
      const comment = isObj(c)
        ? {
            ...c,
            homeScore: num(c.homeScore) ?? c.homeScore,
            awayScore: num(c.awayScore) ?? c.awayScore,
          }
        : c;
      const pc = gameCommentInputSchema.safeParse(comment);
      if (!pc.success) {
        fail(cp, zodReason(pc.error));
        continue;
      }
      const timeStamp = isObj(c) ? (num(c.timeStamp) ?? 0) : 0;
      comments.push({ gameKey, importKey: commentKey, comment: { ...pc.data, timeStamp } });
    }
    for (const [tagKey, t] of entries(g.tags)) {
      const name = isObj(t) ? str(t.name) : str(t);
      if (!tags.has(tagKey) && name) tags.set(tagKey, { tagKey, name, serverTimeStamp: 0 });
      gameTags.push({ gameKey, tagKey });
    }
  }

  // {product}/tags/{id}: name, games, serverTimeStamp (gameCount is derived, SPEC §3).
  for (const [tagKey, t] of entries(productRoot.tags)) {
    const path = `${product}/tags/${tagKey}`;
    if (!isObj(t) || !str(t.name)?.trim()) {
      fail(path, 'has no name');
      continue;
    }
    tags.set(tagKey, {
      tagKey,
      name: (str(t.name) as string).trim().slice(0, 200),
      serverTimeStamp: num(t.serverTimeStamp) ?? tags.get(tagKey)?.serverTimeStamp ?? 0,
    });
    for (const [gameKey] of entries(t.games)) gameTags.push({ gameKey, tagKey });
  }
  // Names are unique ignoring case in Sagan; a second tag of the same name joins the first.
  const byLower = new Map<string, string>();
  const tagAlias = new Map<string, string>();
  for (const tag of [...tags.values()].sort(
    (a, b) => a.serverTimeStamp - b.serverTimeStamp || (a.tagKey < b.tagKey ? -1 : 1),
  )) {
    if (!validKey(tag.tagKey)) {
      fail(`${product}/tags/${tag.tagKey}`, 'the key is not URL-safe, so no link could reach it');
      tags.delete(tag.tagKey);
      continue;
    }
    const first = byLower.get(tag.name.toLowerCase());
    if (first) {
      tagAlias.set(tag.tagKey, first);
      tags.delete(tag.tagKey);
      warn(
        `${product}/tags/${tag.tagKey}`,
        `same name as tag ${first} ('${tag.name}'); its games were added to that tag and /taggedscoreboards/${tag.tagKey} shows not-found`,
      );
    } else byLower.set(tag.name.toLowerCase(), tag.tagKey);
  }
  const seenGameTag = new Set<string>();
  const finalGameTags: { gameKey: string; tagKey: string }[] = [];
  for (const gt of gameTags) {
    const tagKey = tagAlias.get(gt.tagKey) ?? gt.tagKey;
    const id = `${gt.gameKey}\u0000${tagKey}`;
    if (seenGameTag.has(id)) continue;
    seenGameTag.add(id);
    if (!tags.has(tagKey)) {
      fail(
        `${product}/games/${gt.gameKey}/tags/${gt.tagKey}`,
        'the tag has no name anywhere in the export',
      );
      continue;
    }
    if (!loadedGames.has(gt.gameKey)) {
      fail(
        `${product}/tags/${gt.tagKey}/games/${gt.gameKey}`,
        'the game is not in the export (or was not loaded)',
      );
      continue;
    }
    finalGameTags.push({ gameKey: gt.gameKey, tagKey });
  }

  // users/{uid}/favoriteScoreboards and followedTags: need the game / tag loaded.
  const favoriteScoreboards: ImportPlan['favoriteScoreboards'] = [];
  const followedTags: ImportPlan['followedTags'] = [];
  const favoriteRosters: ImportPlan['favoriteRosters'] = [];
  for (const [rawUid, u] of Object.entries(usersRoot)) {
    if (!isObj(u)) continue;
    const uid = mapUid(rawUid);
    for (const [gameKey, f] of entries(u.favoriteScoreboards)) {
      const path = `users/${rawUid}/favoriteScoreboards/${gameKey}`;
      if (!loadedGames.has(gameKey))
        fail(path, 'the game is not in the export (or was not loaded)');
      else
        favoriteScoreboards.push({
          uid,
          gameKey,
          gameName: (isObj(f) ? str(f.gameName) : null) ?? '',
        });
    }
    for (const [tagKey] of entries(u.followedTags)) {
      const key = tagAlias.get(tagKey) ?? tagKey;
      if (!tags.has(key))
        fail(`users/${rawUid}/followedTags/${tagKey}`, 'the tag is not in the export');
      else if (!followedTags.some((f) => f.uid === uid && f.tagKey === key))
        followedTags.push({ uid, tagKey: key });
    }
    for (const [key, f] of entries(u.favoriteRosters)) {
      const path = `users/${rawUid}/favoriteRosters/${key}`;
      if (!validKey(key)) fail(path, 'the key is not URL-safe');
      else
        favoriteRosters.push({
          uid,
          publishedAsKey: key,
          teamName: (isObj(f) ? str(f.teamName) : null) ?? '',
        });
    }
  }

  // teams/{teamKey}: roster, groups and groupMembership.
  const teams: TeamRow[] = [];
  const teamByPublished = new Map<string, string>();
  for (const [teamKey, t, path] of keyedRecords('teams', root.teams)) {
    const owner = str(t.uid) ? mapUid(str(t.uid) as string) : teamOwner.get(teamKey);
    if (!owner) {
      fail(path, 'no owner: neither teams/{key}/uid nor users/{uid}/teams names one');
      continue;
    }
    ensureUser(owner);
    const team = readSheet(t, path, fail);
    const publishedAsKey = str(t.publishedAsKey) || null;
    if (publishedAsKey && !validKey(publishedAsKey)) {
      fail(`${path}/publishedAsKey`, 'not URL-safe; the team was loaded unpublished');
    }
    const published = publishedAsKey && validKey(publishedAsKey) ? publishedAsKey : null;
    if (published) teamByPublished.set(published, teamKey);
    teams.push({
      teamKey,
      uid: owner,
      teamName: str(t.teamName) ?? 'New Team',
      teamNotes: str(t.teamNotes) ?? '',
      active: t.active !== false,
      publishedAsKey: published,
      ...team,
    });
  }

  // rosters/{publishedAsKey}: the public copy, kept as it was published.
  const rosters: RosterRow[] = [];
  for (const [publishedAsKey, r, path] of keyedRecords('rosters', root.rosters)) {
    const teamKey =
      teamByPublished.get(publishedAsKey) ??
      [str(r.teamKey), str(r.key)].find((k) => k && teams.some((t) => t.teamKey === k)) ??
      null;
    const team = teams.find((t) => t.teamKey === teamKey);
    if (!team) {
      fail(path, 'no team in teams/ has this publishedAsKey, so there is no sheet to attach it to');
      continue;
    }
    if (!team.publishedAsKey) team.publishedAsKey = publishedAsKey;
    else if (team.publishedAsKey !== publishedAsKey) {
      fail(
        path,
        `team ${team.teamKey} is published as ${team.publishedAsKey}; one team has one public key`,
      );
      continue;
    }
    const sheet = readSheet(r, path, fail);
    rosters.push({
      publishedAsKey,
      teamKey: team.teamKey,
      uid: str(r.uid) ? mapUid(str(r.uid) as string) : team.uid,
      sheet: {
        publishedAsKey,
        teamName: str(r.teamName) ?? team.teamName,
        teamNotes: str(r.teamNotes) ?? team.teamNotes,
        roster: sheet.players.map((p) => ({
          key: p.playerKey,
          jersey: p.jersey,
          playerName: p.playerName,
          playerNotes: p.playerNotes,
          imageURL: p.imageURL,
        })),
        groups: sheet.groups.map((g) => ({
          groupKey: g.groupKey,
          key: g.groupKey,
          groupName: g.groupName,
        })),
        groupMembership: Object.fromEntries(
          sheet.groups.map((g) => [
            g.groupKey,
            Object.fromEntries(
              sheet.membership
                .filter((m) => m.groupKey === g.groupKey)
                .map((m) => [m.playerKey, { location: m.location, playerKey: m.playerKey }]),
            ),
          ]),
        ),
      },
    });
  }
  for (const t of teams) {
    if (t.publishedAsKey && !rosters.some((r) => r.publishedAsKey === t.publishedAsKey)) {
      warn(
        `teams/${t.teamKey}`,
        `publishedAsKey ${t.publishedAsKey} has no rosters/ copy; the owner can publish again to restore the public page`,
      );
    }
  }

  // gamesPC/{gameKey}, owned through users/{uid}/gamesPC.
  const playCounts: PlayCountRow[] = [];
  for (const [gameKey, g, path] of keyedRecords('gamesPC', root.gamesPC)) {
    const owner = playCountOwner.get(gameKey) ?? (str(g.uid) ? mapUid(str(g.uid) as string) : null);
    if (!owner) {
      fail(
        path,
        'no user lists it under users/{uid}/gamesPC, and play counts are private to their owner',
      );
      continue;
    }
    const input = {
      gameName: str(g.gameName) ?? '',
      gameDate: str(g.gameDate) ?? '',
      archived: g.archived === true,
      roster: entries(g.roster).map(([key, p]) =>
        isObj(p)
          ? {
              ...p,
              key: str(p.key) ?? str(p.playerKey) ?? key,
              jersey: str(p.jersey) ?? '',
              playCount: num(p.playCount) ?? p.playCount,
              location: num(p.location) ?? p.location,
            }
          : p,
      ),
      snaps: entries(g.snaps).map(([, s]) => normaliseSnap(s)),
    };
    const parsed = playCountGameInputSchema.safeParse(input);
    if (!parsed.success) {
      fail(path, zodReason(parsed.error));
      continue;
    }
    ensureUser(owner);
    const { gameName, gameDate, roster, snaps, archived } = parsed.data;
    playCounts.push({ gameKey, uid: owner, game: { gameName, gameDate, roster, snaps }, archived });
  }
  for (const gameKey of playCountOwner.keys()) {
    if (!entries(root.gamesPC).some(([k]) => k === gameKey)) {
      fail(
        `users/${[...Object.entries(usersRoot)].find(([, u]) => isObj(u) && entries(u.gamesPC).some(([k]) => k === gameKey))?.[0] ?? '?'}/gamesPC/${gameKey}`,
        'the game is not in gamesPC/',
      );
    }
  }
  for (const [teamKey, uid] of teamOwner) {
    if (
      !teams.some((t) => t.teamKey === teamKey) &&
      !problems.some((p) => p.path === `teams/${teamKey}`)
    ) {
      fail(`users/${uid}/teams/${teamKey}`, 'the team is not in teams/');
    }
  }

  return {
    product,
    users: [...users.values()],
    games,
    comments,
    tags: [...tags.values()],
    gameTags: finalGameTags,
    favoriteScoreboards,
    followedTags,
    teams,
    rosters,
    favoriteRosters,
    playCounts,
    problems,
    warnings,
  };
}

/** A snap's player keys were stored as `true` (DESIGN §6); quarter may be a string or `qtr`. */
function normaliseSnap(s: unknown): unknown {
  if (!isObj(s)) return s;
  const out: Obj = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'snapCount' || k === 'quarter' || k === 'qtr')
      out[k === 'qtr' ? 'quarter' : k] = num(v) ?? v;
    else if (k === 'groupName') out[k] = v;
    else if (v === true || v === 1 || v === 'true') out[k] = true;
    // A player key stored as false was not in the snap: nothing to keep.
  }
  return out;
}

function readSheet(t: Obj, path: string, fail: (path: string, reason: string) => void) {
  const players: TeamRow['players'] = [];
  for (const [key, p] of entries(t.roster)) {
    const pp = `${path}/roster/${key}`;
    if (!validKey(key)) {
      fail(pp, 'the player key is not URL-safe, so no link could reach it');
      continue;
    }
    const parsed = playerSchema.safeParse(
      isObj(p)
        ? {
            key,
            jersey: str(p.jersey) ?? '',
            playerName: str(p.playerName) ?? '',
            playerNotes: str(p.playerNotes) ?? '',
            imageURL: str(p.imageURL) ?? '',
          }
        : p,
    );
    if (!parsed.success) {
      fail(pp, zodReason(parsed.error));
      continue;
    }
    players.push({ ...parsed.data, playerKey: key });
  }
  const groups: TeamRow['groups'] = [];
  for (const [groupKey, g] of entries(t.groups)) {
    if (!validKey(groupKey)) {
      fail(`${path}/groups/${groupKey}`, 'the group key is not URL-safe');
      continue;
    }
    groups.push({ groupKey, groupName: (isObj(g) ? str(g.groupName) : null) ?? '' });
  }
  const membership: TeamRow['membership'] = [];
  for (const [groupKey, members] of entries(t.groupMembership)) {
    for (const [playerKey, m] of entries(members)) {
      const mp = `${path}/groupMembership/${groupKey}/${playerKey}`;
      if (!groups.some((g) => g.groupKey === groupKey)) fail(mp, 'the group is not in groups/');
      else if (!players.some((p) => p.playerKey === playerKey))
        fail(mp, 'the player is not in roster/');
      else {
        // SPEC §3: 0 or missing is Rested; other codes are kept (displayed as Unknown).
        const location = isObj(m) ? num(m.location) : num(m);
        membership.push({
          groupKey,
          playerKey,
          location: location === null ? 0 : Math.trunc(location),
        });
      }
    }
  }
  return { players, groups, membership };
}
