-- DESIGN §4: the watchers of a game are counted on every node; each node keeps its own counts
-- here (refreshed every second) so any node can answer the sum. A node that stops being seen
-- is left out of the sum and its rows are removed.
CREATE TABLE nodes (
  node_id text PRIMARY KEY,
  seen_at timestamptz NOT NULL
);

CREATE TABLE node_watchers (
  node_id text NOT NULL REFERENCES nodes(node_id) ON DELETE CASCADE,
  topic text NOT NULL,
  watchers integer NOT NULL,
  PRIMARY KEY (node_id, topic)
);
CREATE INDEX node_watchers_topic ON node_watchers(topic);
