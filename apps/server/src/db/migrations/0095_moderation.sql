-- Moderation (DESIGN §10): operators named in ADMIN_UIDS hide games that should not be public.
-- A hidden game is kept (its owner still sees it, marked hidden) but answers as missing on
-- every public surface.
ALTER TABLE games ADD COLUMN hidden_at timestamptz;

-- A signed-in viewer's report of a game: once per person and game; closed when an operator
-- acts on the game (hides it or dismisses its reports).
CREATE TABLE moderation_reports (
  game_key text NOT NULL REFERENCES games(game_key) ON DELETE CASCADE,
  uid text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
  reason text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  PRIMARY KEY (game_key, uid)
);
CREATE INDEX moderation_reports_open ON moderation_reports(created_at) WHERE closed_at IS NULL;

-- Every operator action, with who and when. No reference to the game: the log outlives it.
CREATE TABLE moderation_actions (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  admin_uid text NOT NULL,
  action text NOT NULL CHECK (action IN ('hide', 'unhide', 'dismiss')),
  game_key text NOT NULL,
  owner_uid text NOT NULL
);
