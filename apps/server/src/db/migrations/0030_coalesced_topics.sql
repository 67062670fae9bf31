-- DESIGN §9: aggregate topics are bumped outside the writers' transactions, at most once per
-- interval across every node; this is when a topic was last bumped that way (NULL: never).
ALTER TABLE topic_seq ADD COLUMN flushed_at timestamptz;
