-- DESIGN §9: the game topic's seq at which each scoreboard field last changed, so a write
-- sent against an older seq is refused (409) only when it would overwrite a newer change of
-- one of its own fields. Kept on the game row, which a patch locks anyway.
ALTER TABLE games ADD COLUMN field_seqs jsonb NOT NULL DEFAULT '{}';

-- The last scoreboard changes per game (the owner's history topic), trimmed as they are added.
CREATE TABLE game_history (
  game_key text NOT NULL REFERENCES games(game_key) ON DELETE CASCADE,
  seq bigint NOT NULL,
  at bigint NOT NULL,
  changes jsonb NOT NULL,
  PRIMARY KEY (game_key, seq)
);
