-- DESIGN §9: a write sent with an Idempotency-Key is applied once per user and key; a replay
-- within 24 h gets the first answer. Only successful answers are kept (a refusal changed
-- nothing, so sending it again is safe). Older rows are deleted lazily.
CREATE TABLE idempotency_keys (
  uid text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
  key text NOT NULL,
  -- What the key was first used for (method, route, parameters, body), hashed: the same key
  -- with another request is the client's bug, answered 422.
  fingerprint text NOT NULL,
  body jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (uid, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
