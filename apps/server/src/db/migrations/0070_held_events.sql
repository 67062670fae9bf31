-- DESIGN §10 held events: an event made in a period that had ended when it arrived is stored
-- but not folded until a scorer decides; the decision is itself an event, named here.
ALTER TABLE game_events ADD COLUMN held boolean NOT NULL DEFAULT false;
ALTER TABLE game_events ADD COLUMN resolved_by text;
-- The scorers' topic reads what still waits, on every write that holds or decides.
CREATE INDEX game_events_waiting ON game_events(game_key) WHERE held AND resolved_by IS NULL;
