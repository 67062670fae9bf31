import { z } from 'zod';
import { keySchema } from './keys.ts';

// Who scored (DESIGN §10): a game's home or away team may be linked to one of the owner's team
// sheets. The game keeps a copy of the sheet's players, so its box score outlives the sheet.

export const gameSheetParamsSchema = z.object({
  gameKey: keySchema,
  side: z.enum(['home', 'away']),
});

/** Link the side to this sheet of the owner's (a fresh copy of its players), or unlink (null). */
export const gameSheetInputSchema = z.object({ teamKey: keySchema.nullable() }).strict();

const sheetPlayer = z.object({ playerKey: z.string(), jersey: z.string(), playerName: z.string() });
export type GameSheetPlayer = z.infer<typeof sheetPlayer>;

const linkedSheet = z.object({
  /** Null once the sheet itself was deleted: the copy stays. */
  teamKey: z.string().nullable(),
  teamName: z.string(),
  players: z.array(sheetPlayer),
});
export type LinkedSheet = z.infer<typeof linkedSheet>;

/** The scorers' view: each side's linked sheet, with the players' full names; null: none. */
export const gameSheetsSchema = z.object({
  home: linkedSheet.nullable(),
  away: linkedSheet.nullable(),
});
export type GameSheets = z.infer<typeof gameSheetsSchema>;
