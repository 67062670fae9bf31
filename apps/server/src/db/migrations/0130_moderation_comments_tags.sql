-- Moderation of comments and tags (DESIGN §10): an operator hides a comment or a tag. A hidden
-- comment is kept (its game's scorers still see it, marked hidden); a hidden tag is kept on
-- its games but missing from every public list, count and page.
ALTER TABLE game_comments ADD COLUMN hidden_at timestamptz;
ALTER TABLE tags ADD COLUMN hidden_at timestamptz;

-- A signed-in viewer's report of a comment: once per person and comment; closed when an
-- operator acts on the comment.
CREATE TABLE moderation_comment_reports (
  comment_id bigint NOT NULL REFERENCES game_comments(id) ON DELETE CASCADE,
  uid text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
  reason text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  PRIMARY KEY (comment_id, uid)
);
CREATE INDEX moderation_comment_reports_open ON moderation_comment_reports(created_at)
  WHERE closed_at IS NULL;

-- The log says what each action was on: a game (as before), a comment of game_key (target_key
-- its id), or a tag (target_key its key; no game and no owner to tell). detail keeps the
-- comment's words or the tag's name as they were, for the log and the notice.
ALTER TABLE moderation_actions ADD COLUMN target text NOT NULL DEFAULT 'game'
  CHECK (target IN ('game', 'comment', 'tag'));
ALTER TABLE moderation_actions ADD COLUMN target_key text NOT NULL DEFAULT '';
ALTER TABLE moderation_actions ADD COLUMN detail text NOT NULL DEFAULT '';
ALTER TABLE moderation_actions ALTER COLUMN game_key DROP NOT NULL;
ALTER TABLE moderation_actions ALTER COLUMN owner_uid DROP NOT NULL;
UPDATE moderation_actions SET target_key = game_key;
