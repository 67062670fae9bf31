-- Play counts started in the browser from a team sheet remember their team (the season view
-- sums a team's counts; the phone app's counts have none), the players on the field per snap,
-- and, while the owner shares it, the key of the read-only link (unguessable, revocable).
ALTER TABLE play_count_games
  ADD COLUMN team_key text REFERENCES teams(team_key) ON DELETE SET NULL;
ALTER TABLE play_count_games ADD COLUMN players_per_snap integer;
ALTER TABLE play_count_games ADD COLUMN share_key text UNIQUE;
CREATE INDEX play_count_games_team ON play_count_games(team_key);
