import { describe, expect, it } from 'vitest';
import { IMAGES_PER_MINUTE } from '../src/lib/write-limits.ts';
import { API, databaseKinds, expectRateLimited, newTeamWithPlayer, useTestApp } from './helpers.ts';
import { tinyPng } from './security-world.ts';

// One budget for decoding pictures, whichever route carries them: a player save with a data
// URL used to escape the photo route's limit (600 a minute instead of 60).

const FACTOR = 0.1;
const BUDGET = Math.ceil(IMAGES_PER_MINUTE * FACTOR);

describe.each(databaseKinds())('the image budget on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Photo coach'], config: { rateLimitFactor: FACTOR } });

  it('photos through the photo route and through player saves share one budget', async () => {
    expect(IMAGES_PER_MINUTE).toBe(60);
    const coach = t.users['Photo coach'];
    const { teamKey, playerKey, uploadPhoto } = await newTeamWithPlayer(coach);
    const png = await tinyPng();
    const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
    const saveWithPhoto = (name: string) =>
      coach.request({
        method: 'PUT',
        url: `${API}/teams/${teamKey}/players/${playerKey}`,
        payload: { jersey: '9', playerName: name, playerNotes: '', dataUrl },
      });
    const half = Math.floor(BUDGET / 2);
    for (let i = 0; i < half; i++) expect((await uploadPhoto(png)).statusCode).toBe(200);
    for (let i = half; i < BUDGET; i++) {
      expect((await saveWithPhoto(`Sam ${i}`)).statusCode).toBe(200);
    }
    // Spent: neither route decodes another picture this minute, and the refused save wrote
    // nothing.
    const refused = await saveWithPhoto('Refused name');
    expectRateLimited(refused);
    expectRateLimited(await uploadPhoto(png));
    const team = await coach.request({ url: `${API}/teams/${teamKey}` });
    expect(team.body).not.toContain('Refused name');
    // A save without a picture is not charged.
    const plain = await coach.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/${playerKey}`,
      payload: { jersey: '9', playerName: 'No photo', playerNotes: '' },
    });
    expect(plain.statusCode).toBe(200);
  });
});
