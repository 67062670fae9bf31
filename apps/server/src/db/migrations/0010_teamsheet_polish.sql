-- Player notes often hold health details ("Allergic to peanuts"): the owner may keep them off
-- the public sheet. New teams hide them; existing teams keep showing them as they did, until
-- their owner chooses otherwise.
ALTER TABLE teams ADD COLUMN public_hide_notes boolean NOT NULL DEFAULT false;
ALTER TABLE teams ALTER COLUMN public_hide_notes SET DEFAULT true;

-- A create repeated with the same client-made key (a double click, a retry after a lost
-- answer) finds the row the first one made instead of making another.
ALTER TABLE teams ADD COLUMN create_key text;
CREATE UNIQUE INDEX teams_create_key ON teams(uid, create_key);
ALTER TABLE players ADD COLUMN create_key text;
CREATE UNIQUE INDEX players_create_key ON players(team_key, create_key);
ALTER TABLE team_groups ADD COLUMN create_key text;
CREATE UNIQUE INDEX team_groups_create_key ON team_groups(team_key, create_key);
