/**
 * How many bytes of body each route reads (DESIGN §7: a body is capped at what its route
 * takes). Every route reads at most SMALL_BODY_BYTES unless it names a larger cap here; the
 * photo routes name theirs from MAX_PHOTO_BYTES. A body over its route's cap is refused with
 * 413 before it is parsed, so nothing of it is written.
 */

/** Any JSON route's body: the largest is a team's or player's notes (2,000 characters). */
export const SMALL_BODY_BYTES = 16 * 1024;

/** A snap names up to 500 players by their keys (64 characters at most). */
export const SNAP_BODY_BYTES = 48 * 1024;

/** A bulk upload's text: 100,000 characters at up to 3 bytes each in UTF-8. */
export const BULK_BODY_BYTES = 320 * 1024;

/** The phone app's whole play count (roster and snaps): the cap it has always had. */
export const PLAY_COUNT_BODY_BYTES = 256 * 1024;
