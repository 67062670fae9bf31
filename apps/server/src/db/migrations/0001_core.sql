-- Core: people, sessions, realtime sequence numbers.
CREATE TABLE users (
  uid text PRIMARY KEY,
  display_name text,
  email text,
  -- SPEC §3: lastLogin is a timestamp in ms stored as a string.
  last_login text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  uid text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_uid ON sessions(uid);

-- DESIGN §4: one sequence number per realtime topic, bumped in the writing transaction.
CREATE TABLE topic_seq (
  topic text PRIMARY KEY,
  seq bigint NOT NULL
);

-- Scoreboards (SPEC §3 Scoreboard, Game comment, Game tag, Tag).
CREATE TABLE games (
  game_key text PRIMARY KEY,
  uid text NOT NULL REFERENCES users(uid),
  fields jsonb NOT NULL,
  time_stamp bigint NOT NULL,
  clock_formatted text,
  clock_seconds integer,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX games_recent ON games(time_stamp DESC);
CREATE INDEX games_uid ON games(uid);

CREATE TABLE game_comments (
  id bigserial PRIMARY KEY,
  game_key text NOT NULL REFERENCES games(game_key) ON DELETE CASCADE,
  comment jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX game_comments_game ON game_comments(game_key, id);

CREATE TABLE tags (
  tag_key text PRIMARY KEY,
  name text NOT NULL,
  name_lower text NOT NULL UNIQUE,
  server_time_stamp bigint NOT NULL
);

CREATE TABLE game_tags (
  game_key text NOT NULL REFERENCES games(game_key) ON DELETE CASCADE,
  tag_key text NOT NULL REFERENCES tags(tag_key) ON DELETE CASCADE,
  PRIMARY KEY (game_key, tag_key)
);
CREATE INDEX game_tags_tag ON game_tags(tag_key);

CREATE TABLE favorite_scoreboards (
  uid text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
  game_key text NOT NULL REFERENCES games(game_key) ON DELETE CASCADE,
  game_name text NOT NULL,
  PRIMARY KEY (uid, game_key)
);

CREATE TABLE followed_tags (
  uid text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
  tag_key text NOT NULL REFERENCES tags(tag_key) ON DELETE CASCADE,
  PRIMARY KEY (uid, tag_key)
);

CREATE TABLE scorekeeper_messages (
  id bigserial PRIMARY KEY,
  game_key text NOT NULL REFERENCES games(game_key) ON DELETE CASCADE,
  from_uid text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
  message text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX scorekeeper_messages_game ON scorekeeper_messages(game_key, id);

-- Team sheets (SPEC §3 Team sheet, Player, Group membership).
CREATE TABLE teams (
  team_key text PRIMARY KEY,
  uid text NOT NULL REFERENCES users(uid),
  team_name text NOT NULL,
  team_notes text NOT NULL DEFAULT '',
  active boolean NOT NULL DEFAULT true,
  -- NULL while unpublished (the original stored ''); unique once assigned.
  published_as_key text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX teams_uid ON teams(uid);

CREATE TABLE players (
  team_key text NOT NULL REFERENCES teams(team_key) ON DELETE CASCADE,
  player_key text NOT NULL,
  jersey text NOT NULL,
  player_name text NOT NULL,
  player_notes text NOT NULL DEFAULT '',
  image_url text NOT NULL DEFAULT '',
  PRIMARY KEY (team_key, player_key)
);

CREATE TABLE team_groups (
  team_key text NOT NULL REFERENCES teams(team_key) ON DELETE CASCADE,
  group_key text NOT NULL,
  group_name text NOT NULL,
  PRIMARY KEY (team_key, group_key)
);

CREATE TABLE group_membership (
  team_key text NOT NULL,
  group_key text NOT NULL,
  player_key text NOT NULL,
  location integer NOT NULL,
  PRIMARY KEY (team_key, group_key, player_key),
  FOREIGN KEY (team_key, group_key) REFERENCES team_groups(team_key, group_key) ON DELETE CASCADE,
  FOREIGN KEY (team_key, player_key) REFERENCES players(team_key, player_key) ON DELETE CASCADE
);

-- SPEC §4: publishing copies the sheet to the public rosters area.
CREATE TABLE rosters (
  published_as_key text PRIMARY KEY,
  team_key text NOT NULL REFERENCES teams(team_key) ON DELETE CASCADE,
  uid text NOT NULL,
  sheet jsonb NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE favorite_rosters (
  uid text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
  published_as_key text NOT NULL,
  team_name text NOT NULL,
  PRIMARY KEY (uid, published_as_key)
);

-- Play counts (SPEC §3 Play count game), written whole by Player Counter.
CREATE TABLE play_count_games (
  game_key text PRIMARY KEY,
  uid text NOT NULL REFERENCES users(uid),
  game jsonb NOT NULL,
  archived boolean NOT NULL DEFAULT false,
  min_plays integer,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX play_count_games_uid ON play_count_games(uid);
