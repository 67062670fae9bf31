-- Play counts list order (SPEC §2): newest game first, and archiving or setting a minimum
-- (which change updated_at) must not move a game to the top. Rows that exist get their last
-- change as their creation time, the best we know.
ALTER TABLE play_count_games ADD COLUMN created_at timestamptz;
UPDATE play_count_games SET created_at = updated_at;
ALTER TABLE play_count_games ALTER COLUMN created_at SET DEFAULT now();
ALTER TABLE play_count_games ALTER COLUMN created_at SET NOT NULL;
CREATE INDEX play_count_games_uid_created ON play_count_games(uid, created_at DESC);
