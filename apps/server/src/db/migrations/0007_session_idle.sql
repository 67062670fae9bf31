-- Sessions also end after SESSION_IDLE_DAYS without a request. last_seen_at is written at most
-- once an hour per session, so a busy user costs no write per request.
ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now();
