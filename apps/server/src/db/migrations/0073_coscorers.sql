-- Co-scorers (DESIGN §10): the owner of a game or a play count invites others to score it
-- through a link. One row per invitation: unbound (uid null) until a signed-in user redeems it,
-- then bound to that account until the owner revokes it (the row is deleted). Only a hash of
-- the link's token is kept, so a copy of the database does not hand out scoring rights.
CREATE TABLE coscorers (
  id text PRIMARY KEY,
  game_key text REFERENCES games(game_key) ON DELETE CASCADE,
  playcount_key text REFERENCES play_count_games(game_key) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  uid text REFERENCES users(uid) ON DELETE CASCADE,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  redeemed_at bigint,
  CHECK ((game_key IS NULL) <> (playcount_key IS NULL))
);
-- One binding per person and game or count; the guard's look-up of every scorer's write.
CREATE UNIQUE INDEX coscorers_game_uid ON coscorers(game_key, uid)
  WHERE game_key IS NOT NULL AND uid IS NOT NULL;
CREATE UNIQUE INDEX coscorers_playcount_uid ON coscorers(playcount_key, uid)
  WHERE playcount_key IS NOT NULL AND uid IS NOT NULL;
-- What a user scores (their list, and account deletion).
CREATE INDEX coscorers_uid ON coscorers(uid) WHERE uid IS NOT NULL;
