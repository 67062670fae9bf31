-- A play count's snaps and undos go through the one write helper (DESIGN §10), like a game's
-- writes: the event row is also the idempotency record, keeping who sent the key, the
-- request's fingerprint and the answer a replay gets again, instead of a row in
-- idempotency_keys beside it.
ALTER TABLE playcount_events ADD COLUMN fingerprint text;
ALTER TABLE playcount_events ADD COLUMN answer jsonb;
