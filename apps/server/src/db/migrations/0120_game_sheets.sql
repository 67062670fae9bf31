-- Who scored (DESIGN §10): a game may be linked to a team sheet for its home or away team. The
-- link keeps its own copy of the sheet's players (so a box score still reads after the sheet
-- is deleted or a player leaves it) and of the sheet's privacy option, which follows the sheet
-- while it exists and stays as it was when the sheet is deleted (team_key becomes null).
CREATE TABLE game_sheets (
  game_key text NOT NULL REFERENCES games(game_key) ON DELETE CASCADE,
  side text NOT NULL CHECK (side IN ('home', 'away')),
  team_key text REFERENCES teams(team_key) ON DELETE SET NULL,
  team_name text NOT NULL,
  -- [{ playerKey, jersey, playerName }] as on the sheet when linked.
  players jsonb NOT NULL,
  privacy_initials_only boolean NOT NULL DEFAULT false,
  PRIMARY KEY (game_key, side)
);
-- A sheet's privacy change reaches the games linked to it.
CREATE INDEX game_sheets_team ON game_sheets(team_key) WHERE team_key IS NOT NULL;
