-- Photos get an internal id that is never a public path: the file is {id}.jpg in the photo
-- store, and it is served only through a sheet, play count or owner that may show it now.
CREATE TABLE photos (
  id text PRIMARY KEY,
  uid text NOT NULL REFERENCES users(uid),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX photos_uid ON photos(uid);
ALTER TABLE players ADD COLUMN photo_id text REFERENCES photos(id);
CREATE INDEX players_photo ON players(photo_id);

-- Stored URLs of the old public store (/apps/sagan/api/photos/{file}.jpg) become ids: the file
-- keeps its name. A file referred to by players of more than one user cannot be given to one
-- of them (someone pasted another's URL), so it goes to nobody and the sweep deletes it.
INSERT INTO photos (id, uid)
SELECT f.id, min(t.uid)
  FROM (SELECT substring(image_url from '^/apps/sagan/api/photos/([A-Za-z0-9_-]{10,64})\.jpg$') AS id,
               team_key
          FROM players) f
  JOIN teams t ON t.team_key = f.team_key
 WHERE f.id IS NOT NULL
 GROUP BY f.id
HAVING count(DISTINCT t.uid) = 1;

UPDATE players p SET photo_id = ph.id, image_url = ''
  FROM photos ph, teams t
 WHERE t.team_key = p.team_key AND ph.uid = t.uid
   AND p.image_url = '/apps/sagan/api/photos/' || ph.id || '.jpg';

-- What is left of the old store's URLs served nobody's photo: cleared. External http(s) URLs
-- stay as they are.
UPDATE players SET image_url = '' WHERE image_url LIKE '/apps/sagan/api/photos/%';

-- Published copies name the photo through the sheet; the serving route checks the live state.
UPDATE rosters r SET sheet = jsonb_set(r.sheet, '{roster}', (
  SELECT coalesce(jsonb_agg(
           CASE WHEN e->>'imageURL' LIKE '/apps/sagan/api/photos/%'
                THEN jsonb_set(e, '{imageURL}', to_jsonb(
                       '/apps/sagan/api/rosters/' || r.published_as_key || '/players/' ||
                       (e->>'key') || '/photo'))
                ELSE e END
           ORDER BY i), '[]'::jsonb)
    FROM jsonb_array_elements(r.sheet->'roster') WITH ORDINALITY AS x(e, i)))
 WHERE jsonb_typeof(r.sheet->'roster') = 'array'
   AND r.sheet::text LIKE '%/apps/sagan/api/photos/%';
