-- DESIGN §9 clock model: the clock's state, from which everyone computes what it shows.
-- clock_seconds is what it showed when it last started, stopped or was set (or what the phone
-- app sent); clock_formatted the text shown while stopped.
ALTER TABLE games ADD COLUMN clock_running boolean NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN clock_started_at bigint;
ALTER TABLE games ADD COLUMN clock_direction text NOT NULL DEFAULT 'up';
ALTER TABLE games ADD COLUMN clock_limit integer;
