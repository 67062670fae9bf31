-- The scorekeeper marks a viewer's message read.
ALTER TABLE scorekeeper_messages ADD COLUMN read boolean NOT NULL DEFAULT false;
