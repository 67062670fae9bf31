-- Write limits are counted where every node sees them (DESIGN §9): per route and caller, the
-- window that caller's first counted write opened and the share of the limit the nodes have
-- claimed in it. A node claims a slice of the limit at a time and spends it locally, so a write
-- costs a round trip here only once per slice. Rows of ended windows are deleted.
CREATE TABLE write_limit_windows (
  limit_key text PRIMARY KEY,
  window_ends_at bigint NOT NULL,
  claimed integer NOT NULL
);
CREATE INDEX write_limit_windows_ends ON write_limit_windows(window_ends_at);
