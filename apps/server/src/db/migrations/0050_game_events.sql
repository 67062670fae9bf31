-- DESIGN §10: a game is an append-only log of events; games.fields is the fold of the log's
-- counted events (kept so that a read stays one row). One row per tap or edit.
CREATE TABLE game_events (
  game_key text NOT NULL REFERENCES games(game_key) ON DELETE CASCADE,
  -- The client's Idempotency-Key, or made by the server: a replay finds its first answer here.
  event_id text NOT NULL,
  uid text NOT NULL,
  -- The phone or browser that made it (null: the phone apps' API, the importer, a baseline).
  device text,
  -- The game topic's seq the client last saw when it made the event, if it said.
  base_seq bigint,
  -- The game topic's seq this event's write made: the log's order.
  seq bigint NOT NULL,
  -- The period it was made in.
  period text NOT NULL,
  at bigint NOT NULL,
  -- An intent of the sport ("home +2"), a "set" of only the fields it changes, or a void.
  body jsonb NOT NULL,
  -- What it did to the snapshot when appended, field by field (the Changes list).
  changes jsonb NOT NULL DEFAULT '{}',
  -- The void event that takes this one back (null: it counts).
  voided_by text,
  -- The request's hash and its answer, for a replay under the same key.
  fingerprint text,
  answer jsonb,
  PRIMARY KEY (game_key, event_id)
);
CREATE INDEX game_events_seq ON game_events(game_key, seq);

-- Each existing game's log starts with one baseline event holding its current state; its old
-- history rows stay readable as legacy entries.
INSERT INTO game_events (game_key, event_id, uid, seq, period, at, body)
SELECT g.game_key, 'baseline', g.uid,
       COALESCE((SELECT s.seq FROM topic_seq s WHERE s.topic = 'game:' || g.game_key), 0),
       COALESCE(g.fields ->> 'gamePeriod', ''),
       (extract(epoch FROM now()) * 1000)::bigint,
       jsonb_build_object('kind', 'set', 'values', g.fields)
FROM games g;
