import type { FastifyRequest } from 'fastify';
import type { SessionUser } from '@sagan/shared/auth';
import type { Queryable } from '../../db/db.ts';
import { notFound } from '../../lib/http-errors.ts';
import { requireUser } from '../../plugins/auth.ts';
import { findTeam, lockTeam, type TeamRow } from './repo.ts';

/**
 * SPEC §6: only the owner may see or change a private sheet. Someone else gets the same 404
 * as for a sheet that does not exist, so keys cannot be probed. With forUpdate (a write) the
 * row stays locked until commit, so concurrent writers of one team go one at a time.
 */
export async function ownedTeam(
  q: Queryable,
  user: SessionUser,
  teamKey: string,
  forUpdate = false,
): Promise<TeamRow> {
  if (forUpdate) await lockTeam(q, teamKey);
  const team = await findTeam(q, teamKey);
  if (!team || team.uid !== user.uid) throw notFound('Team sheet not found');
  return team;
}

/**
 * The guard of an owner's write to the sheet a route names (`:teamKey`): ownedTeam, the row
 * locked until commit. Who is asking is checked at once, so a signed-out request gets its 401
 * before anything else.
 */
export function sheetOwnerGuard(req: FastifyRequest & { params: { teamKey: string } }) {
  const user = requireUser(req);
  return (q: Queryable) => ownedTeam(q, user, req.params.teamKey, true);
}
