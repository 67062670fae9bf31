-- An operator blocks a person from public games (DESIGN §10): their games answer as missing on
-- every public surface (their comments, all on their own games, with them), and they cannot
-- create new ones, until an operator unblocks them. Like a hidden game, nothing is deleted.
ALTER TABLE users ADD COLUMN blocked_at timestamptz;

-- The log says so: target 'user', target_key and owner_uid the person's uid.
ALTER TABLE moderation_actions DROP CONSTRAINT moderation_actions_action_check;
ALTER TABLE moderation_actions ADD CONSTRAINT moderation_actions_action_check
  CHECK (action IN ('hide', 'unhide', 'dismiss', 'block', 'unblock'));
ALTER TABLE moderation_actions DROP CONSTRAINT moderation_actions_target_check;
ALTER TABLE moderation_actions ADD CONSTRAINT moderation_actions_target_check
  CHECK (target IN ('game', 'comment', 'tag', 'user'));
