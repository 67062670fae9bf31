import { z } from 'zod';

// Children's privacy: the owner chooses what the public sheet shows. The server applies
// it to everything it sends an anonymous visitor; hiding with CSS would still leak the data.

export const publicPrivacySchema = z.object({
  /** Show 'A. L.' instead of 'Ada Lovelace' on the public sheet and player pages. */
  initialsOnly: z.boolean(),
  /** Show the missing-avatar image instead of the player's photo. */
  hidePhotos: z.boolean(),
  /** Leave the players' notes (often health details) off the public sheet. */
  hideNotes: z.boolean(),
});
export type PublicPrivacy = z.infer<typeof publicPrivacySchema>;

/** A client that predates the notes option keeps the team's current choice by leaving it out. */
export const publicPrivacyInputSchema = publicPrivacySchema.extend({
  hideNotes: z.boolean().optional(),
});

export const defaultPrivacy: PublicPrivacy = {
  initialsOnly: false,
  hidePhotos: false,
  hideNotes: true,
};

/** 'Ada Lovelace' → 'A. L.'; 'de la Cruz' → 'D. L. C.'; letters of any script. */
export function initialsOf(name: string): string {
  return name
    .trim()
    .split(/[\s-]+/)
    .map((part) => [...part].find((ch) => /\p{L}|\p{N}/u.test(ch)))
    .filter((ch): ch is string => Boolean(ch))
    .map((ch) => `${ch.toLocaleUpperCase()}.`)
    .join(' ');
}

/**
 * Applies the owner's choice to a public roster's players. A roster without notes (a play
 * count's) is left without them.
 */
export function applyPrivacy<
  T extends { playerName: string; imageURL: string; playerNotes?: string },
>(roster: readonly T[], privacy: PublicPrivacy): T[] {
  return roster.map((p) => ({
    ...p,
    playerName: privacy.initialsOnly ? initialsOf(p.playerName) : p.playerName,
    imageURL: privacy.hidePhotos ? '' : p.imageURL,
    ...(p.playerNotes === undefined ? {} : { playerNotes: privacy.hideNotes ? '' : p.playerNotes }),
  }));
}
