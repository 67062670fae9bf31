import { z } from 'zod';
import { safeText } from './text.ts';

// SPEC §3 Group membership location codes.
export const Location = { Rested0: 0, Playing: 1, Sideline: 2, Rested: 3 } as const;

export function locationLabel(location: number | null | undefined): string {
  if (location === 1) return 'Playing';
  if (location === 2) return 'Sideline';
  if (location === 3 || location === 0 || location === null || location === undefined) {
    return 'Rested';
  }
  return 'Unknown';
}

/** SPEC §4 membership toggle cycle. */
export function nextLocation(current: unknown): 1 | 2 | 3 {
  try {
    const value = normaliseLocation(current);
    if (value === 1) return 3;
    if (value === 2) return 1;
    return 2;
  } catch {
    // SPEC §4: an error in lookup sets it to Playing.
    return 1;
  }
}

function normaliseLocation(current: unknown): number {
  if (current === null || current === undefined) return 0;
  const n = typeof current === 'string' ? Number(current) : current;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new Error('bad location');
  return n;
}

// DESIGN §8: names keep every printable letter of any script, NFC-normalised so that the
// same name typed on two keyboards (é as one character or e + accent) is the same text.
// The messages say what is wrong; the form's help text already says what is allowed.
export const JERSEY_MAX = 10;
export const jerseySchema = z
  .string()
  .trim()
  .normalize('NFC')
  .min(1, 'Jersey is required')
  .max(JERSEY_MAX, `Jersey is too long: at most ${JERSEY_MAX} characters`)
  .regex(
    /^[\p{L}\p{M}\p{N}]+$/u,
    'Jersey can only have numbers and letters (no spaces or symbols)',
  );
export const PLAYER_NAME_MAX = 100;
export const playerNameSchema = safeText()
  .trim()
  .normalize('NFC')
  .min(1, 'Name is required')
  .max(PLAYER_NAME_MAX, `Name is too long: at most ${PLAYER_NAME_MAX} characters`);

export const playerInputSchema = z.object({
  jersey: jerseySchema,
  playerName: playerNameSchema,
  playerNotes: safeText().max(2000).default(''),
});
export type PlayerInput = z.infer<typeof playerInputSchema>;

export const TEAM_NAME_MAX = 100;
export const teamInputSchema = z.object({
  teamName: safeText()
    .trim()
    .normalize('NFC')
    .min(1, 'Team name is required')
    .max(TEAM_NAME_MAX, `The team name is too long: at most ${TEAM_NAME_MAX} characters`),
  teamNotes: safeText().max(2000),
});

export const groupNameSchema = z.object({
  groupName: safeText().trim().normalize('NFC').min(1).max(60),
});

// SPEC §9 default team.
export const DEFAULT_TEAM = { teamName: 'New Team', teamNotes: 'Description' } as const;

/** SPEC §5 image picker: a file whose name has no extension part (no dot, or a dot at 0) is ignored. */
export function hasExtension(fileName: string): boolean {
  return fileName.lastIndexOf('.') > 0;
}
