-- Children's privacy: what the public sheet shows, chosen by the owner. Applied by the
-- server to every public read of the sheet, so an anonymous visitor never receives more.
ALTER TABLE teams ADD COLUMN public_initials_only boolean NOT NULL DEFAULT false;
ALTER TABLE teams ADD COLUMN public_hide_photos boolean NOT NULL DEFAULT false;
