import { describe, expect, it } from 'vitest';
import { appConfigSchema, sessionStateSchema } from '@sagan/shared/auth';
import { API, databaseKinds, signInLocal, useTestApp } from './helpers.ts';

// The web app asks who is signed in on every page: nobody is an answer (200, user null), not an
// error, so an anonymous visit logs no failed request. API clients keep /auth/me and its 401.
describe.each(databaseKinds())('session check on $name', (kind) => {
  const t = useTestApp(kind);

  it('answers 200 with no user to an anonymous browser, never stored by a cache', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/auth/session` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(sessionStateSchema.parse(res.json())).toEqual({ user: null });
  });

  it('answers with the signed-in user, and nobody again after sign-out', async () => {
    const ada = await signInLocal(t.app, 'Ada Session');
    const res = await ada.request({ method: 'GET', url: `${API}/auth/session` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(sessionStateSchema.parse(res.json())).toEqual({
      user: { uid: ada.uid, displayName: 'Ada Session' },
    });

    await ada.request({ method: 'POST', url: `${API}/auth/logout` });
    const after = await ada.request({ method: 'GET', url: `${API}/auth/session` });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ user: null });
  });

  it('answers a dead or forged session cookie with no user, not an error', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${API}/auth/session`,
      headers: { cookie: 'sagan_session=not-a-real-session-token' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: null });
  });

  it('keeps the 401 of /auth/me for API clients', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/auth/me` });
    expect(res.statusCode).toBe(401);
  });
});

describe.each(databaseKinds())('app configuration on $name', (kind) => {
  const t = useTestApp(kind, () => ({
    config: {
      operator: { name: 'Riverside Juniors', contact: 'privacy@club.example' },
      links: {
        about: 'https://club.example/about',
        apps: null,
        blog: null,
        social: null,
        promo: 'https://club.example/app',
        playerCounter: null,
      },
    },
  }));

  it('tells the web app who runs the site and which outside links exist', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/config` });
    expect(res.statusCode).toBe(200);
    const config = appConfigSchema.parse(res.json());
    expect(config.operator).toEqual({ name: 'Riverside Juniors', contact: 'privacy@club.example' });
    expect(config.links.about).toBe('https://club.example/about');
    expect(config.links.blog).toBeNull();
    expect(config.links.promo).toBe('https://club.example/app');
  });
});
