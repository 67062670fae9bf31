import { z } from 'zod';

/**
 * Deleting an account cannot be undone: the request must carry the confirmation the screen
 * asked for, so a stray or replayed POST without it deletes nothing.
 */
export const DELETE_ACCOUNT_CONFIRMATION = 'delete my account';
export const deleteAccountSchema = z.object({
  confirm: z.literal(DELETE_ACCOUNT_CONFIRMATION, {
    error: `Type "${DELETE_ACCOUNT_CONFIRMATION}" to confirm`,
  }),
});
export type DeleteAccount = z.infer<typeof deleteAccountSchema>;

export const deleteAccountResultSchema = z.object({
  ok: z.literal(true),
  teams: z.number().int(),
  games: z.number().int(),
  playCounts: z.number().int(),
  photos: z.number().int(),
});

/** The name the download is saved under: `sagan-my-data-2026-09-05.json`. */
export const myDataFileName = (isoDate: string) => `sagan-my-data-${isoDate.slice(0, 10)}.json`;
