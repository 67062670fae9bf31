-- The owner is told when an operator hides or restores their game (DESIGN §10): each such
-- action is also a notice to the owner, shown until they dismiss it. The game's name is kept as
-- it was, so the notice still says which game after a rename or a deletion.
ALTER TABLE moderation_actions ADD COLUMN game_name text NOT NULL DEFAULT '';
ALTER TABLE moderation_actions ADD COLUMN owner_seen_at timestamptz;
-- Actions that tell the owner nothing new (a dismissal, hiding a game already hidden) are seen.
UPDATE moderation_actions SET owner_seen_at = at;
CREATE INDEX moderation_actions_owner_unseen ON moderation_actions(owner_uid)
  WHERE owner_seen_at IS NULL;
