-- A play count is an append-only log of events (DESIGN §10): one row per snap, undo or phone
-- write, the row of the count keeping only a snapshot of the counts, so a snap writes one
-- small row whatever the count's length. Same shape as the game log: the event id is the
-- client's Idempotency-Key (or made by the server), who made it (user and device), the topic
-- sequence it was made against, the server time, the event, and the event that voided it.
CREATE TABLE playcount_events (
  id bigserial PRIMARY KEY,
  game_key text NOT NULL REFERENCES play_count_games(game_key) ON DELETE CASCADE,
  event_id text NOT NULL,
  uid text NOT NULL,
  device text,
  base_seq bigint,
  server_time timestamptz NOT NULL DEFAULT now(),
  body jsonb NOT NULL,
  voided_by text,
  UNIQUE (game_key, event_id)
);
-- The count's snaps as the phone app and the screens read them: its live snap events in order.
CREATE INDEX playcount_events_live_snaps ON playcount_events(game_key, id)
  WHERE voided_by IS NULL AND body->>'kind' = 'snap';

ALTER TABLE play_count_games ADD COLUMN snap_total integer NOT NULL DEFAULT 0;
-- A finished count is final: the parent link stops saying "Live" and no more snaps are taken.
ALTER TABLE play_count_games ADD COLUMN finished boolean NOT NULL DEFAULT false;
UPDATE play_count_games SET finished = true WHERE archived;
-- Privacy is a snapshot owned by the count (DESIGN §10): copied from the sheet when the count
-- is made, kept in step with it while it exists, kept when it is deleted.
ALTER TABLE play_count_games ADD COLUMN privacy_initials_only boolean NOT NULL DEFAULT false;
ALTER TABLE play_count_games ADD COLUMN privacy_hide_photos boolean NOT NULL DEFAULT false;
UPDATE play_count_games g
   SET privacy_initials_only = t.public_initials_only, privacy_hide_photos = t.public_hide_photos
  FROM teams t WHERE t.team_key = g.team_key;

-- Existing counts: their snaps become events, then a baseline of the stored counts (a phone's
-- counts need not equal what its snaps add up to), and the row keeps the counts only.
INSERT INTO playcount_events (game_key, event_id, uid, server_time, body)
SELECT g.game_key, 'migrated-snap-' || s.n, g.uid, g.updated_at,
       jsonb_build_object('kind', 'snap', 'snap', s.snap, 'counted', false)
  FROM play_count_games g
 CROSS JOIN LATERAL jsonb_array_elements(coalesce(g.game->'snaps', '[]'::jsonb))
       WITH ORDINALITY AS s(snap, n)
 ORDER BY g.game_key, s.n;
INSERT INTO playcount_events (game_key, event_id, uid, server_time, body)
SELECT game_key, 'migrated-baseline', uid, updated_at,
       jsonb_build_object('kind', 'baseline', 'gameName', game->'gameName',
                          'gameDate', game->'gameDate', 'roster', game->'roster')
  FROM play_count_games ORDER BY game_key;
UPDATE play_count_games
   SET snap_total = coalesce(jsonb_array_length(game->'snaps'), 0), game = game - 'snaps';
