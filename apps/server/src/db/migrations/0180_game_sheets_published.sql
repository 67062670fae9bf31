-- Who scored (DESIGN §10): a game's link to a team sheet also keeps whether the sheet is
-- published. The public box score names the players of a published sheet only (by initials if
-- its privacy asks); an unpublished sheet's players are shown to the public by jersey number,
-- and by name to the game's scorers. Like the privacy option, it follows the sheet while the
-- sheet exists and stays as it was when the sheet is deleted.
ALTER TABLE game_sheets ADD COLUMN sheet_published boolean NOT NULL DEFAULT false;
UPDATE game_sheets s SET sheet_published = true
  WHERE EXISTS (SELECT 1 FROM rosters r WHERE r.team_key = s.team_key);
