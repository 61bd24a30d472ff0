import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Campaign, type Presave, type ReleaseSettingsInput } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { openDatabase } from '../../platform/db/database.ts';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, campaignAppleAccount, campaignSpotifyAccount, cmsApi, createApp, createCampaign, failure, login, startCmsServer, waitFor } from '../testing.ts';
import { defaultZoneOf, releaseInstant } from './clock.ts';
import { presaveJob } from './job.ts';
import { toPresave } from './service.ts';

const HOUR = 3_600_000;

/** What the emulators hold in a fan's library, and how many library writes they answered. */
async function libraryOf(ts: TestServer, service: 'spotify' | 'apple', fan: string): Promise<{ albums: string[]; tracks: string[]; artists: string[]; writes: number }> {
  const res = await fetch(`${ts.partyUrl}/emulator/control/library?service=${service}&fan=${fan}`); // raw: emulator control, not in the API
  return (await res.json()) as { albums: string[]; tracks: string[]; artists: string[]; writes: number };
}

async function setAvailable(ts: TestServer, service: 'spotify' | 'apple', id: string, country: string, available: boolean): Promise<void> {
  const res = await fetch(`${ts.partyUrl}/emulator/control/availability`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ service, id, country, available }) });
  expect(res.status).toBe(204);
}

async function armFault(ts: TestServer, service: 'spotify' | 'apple', fan: string, status: number, count: number): Promise<void> {
  await fetch(`${ts.partyUrl}/emulator/control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ service, fan, status, count }) });
}

describe('release clock per territory (pure)', () => {
  it('reads a local release time in each territory’s main zone', () => {
    const clock = { mode: 'local' as const, local_time: '2030-03-01T00:00', territories: {} };
    expect(releaseInstant(clock, 'DE')).toEqual({ releaseAt: Date.parse('2030-02-28T23:00:00Z'), timeZone: 'Europe/Berlin' });
    expect(releaseInstant(clock, 'GB')).toEqual({ releaseAt: Date.parse('2030-03-01T00:00:00Z'), timeZone: 'Europe/London' });
    expect(releaseInstant(clock, 'US')!.timeZone).toBe('America/New_York');
  });
  it('lets a territory have its own local time and zone', () => {
    const clock = { mode: 'local' as const, local_time: '2030-03-01T00:00', territories: { US: { local_time: '2030-03-01T09:00', time_zone: 'America/Los_Angeles' } } };
    expect(releaseInstant(clock, 'US')).toEqual({ releaseAt: Date.parse('2030-03-01T17:00:00Z'), timeZone: 'America/Los_Angeles' });
  });
  it('one instant is the same everywhere', () => {
    const clock = { mode: 'instant' as const, at: '2030-03-01T00:00:00Z' };
    expect(releaseInstant(clock, 'JP')).toEqual({ releaseAt: Date.parse('2030-03-01T00:00:00Z'), timeZone: null });
  });
  it('a country sharing a neighbour’s zone gets that zone', () => {
    expect(defaultZoneOf('DK')).toBe('Europe/Berlin');
    expect(defaultZoneOf('AT')).toBe('Europe/Vienna');
  });
});

describe.each(DB_TARGETS)('pre-save (%s)', (db) => {
  let ts: TestServer;
  let appId: string;
  let album: { spotify: string; apple: string; tracks: string[]; artist: string };
  const realNow = Date.now;
  /** The server's clock: tests move it past a release (the scheduler reads `ctx.now`). */
  let clockAt = Date.now();
  const setClock = (ms: number) => {
    clockAt = ms;
    ts.server.ctx.now = () => clockAt;
  };

  beforeAll(async () => {
    ts = await startCmsServer(db);
    appId = await createApp(ts, await adminToken(), 'presave-pages');
    const al = ts.server.ctx.catalog.albums[0]!;
    const tracks = ts.server.ctx.catalog.albumTracks(al);
    album = { spotify: al.spotify_id, apple: al.apple_id, tracks: tracks.map((t) => t.spotify_id), artist: ts.server.ctx.catalog.artistByKey(al.artist_keys[0]!).spotify_id };
    setClock(realNow());
  });
  afterAll(() => ts?.close());

  let slugs = 0;
  async function releaseCampaign(release: Partial<ReleaseSettingsInput> = {}, countries = ['DE', 'GB']): Promise<Campaign> {
    const releaseAt = new Date(clockAt + 24 * HOUR).toISOString();
    const data = {
      participating_countries: countries,
      release: {
        clock: { mode: 'instant', at: releaseAt },
        spotify: { album_id: album.spotify, track_ids: album.tracks, artist_ids: [album.artist] },
        apple: { album_id: album.apple, song_ids: [] },
        consent_text: { en: 'Save the album to my library and follow the artist at release.', de: 'Album bei Erscheinen in meiner Bibliothek speichern.' },
        ...release,
      },
    };
    return createCampaign(ts, await adminToken(), { app_id: appId, name: `Pre-save ${++slugs}`, slug: `presave-${db}-${slugs}`, enabled_services: ['spotify', 'apple'], data });
  }

  const asFan = (token: string, country = 'DE') => ({
    save: (body: { save: 'album' | 'tracks'; follow_artist?: boolean; locale?: string; email?: string }, id: string) =>
      cmsApi(ts, token).call(
        'presave',
        { params: { id }, body: { locale: 'en', host_url: 'https://label.example/page', follow_artist: false, ...body } },
        { headers: { 'cf-ipcountry': country } },
      ),
    get: (id: string) => cmsApi(ts, token).call('getPresave', { params: { id } }),
  });

  /** A pre-save as stored (fans' sessions expire when a test moves the clock a day ahead). */
  async function stored(presaveId: string): Promise<Presave> {
    const row = await ts.server.ctx.db.selectFrom('cms_presaves').selectAll().where('id', '=', presaveId).executeTakeFirstOrThrow();
    return toPresave(row, row.next_attempt_at);
  }

  /** Waits for the server's scheduler to bring the pre-save where `done` says. */
  async function runUntil(presaveId: string, done: (p: Presave) => boolean): Promise<Presave> {
    return waitFor(async () => {
      const p = await stored(presaveId);
      return done(p) ? p : null;
    }, 400);
  }

  /** A fresh back-office token (sessions are made on the server's clock, which tests move). */
  let admin: { token: string; at: number } | null = null;
  const adminToken = async () => {
    if (!admin || Math.abs(clockAt - admin.at) > HOUR) admin = { token: await login(ts, ADMIN.email, ADMIN.password), at: clockAt };
    return admin.token;
  };

  it('presave: stores the choice with the consent wording the fan was shown, as the newsletter ledger does', async () => {
    const c = await releaseCampaign();
    const token = await campaignSpotifyAccount(ts, c.id, c.url, `ledger-${db}`);
    const p = await asFan(token).save({ save: 'album', follow_artist: true, locale: 'de' }, c.id);
    expect(p).toMatchObject({ state: 'pending', service: 'spotify', territory: 'DE', save: 'album', follow_artist: true, attempts: 0 });
    expect(p.due_at).toBeNull();
    const row = await ts.server.ctx.db.selectFrom('cms_presaves').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow();
    expect(row.consent_text).toBe('Album bei Erscheinen in meiner Bibliothek speichern.');
    expect(row.locale).toBe('de');
    expect(row.source_page).toBe('https://label.example/page');
    expect(row.ip).toBeTruthy();
    expect(row.consent_text_version).toMatch(/^[0-9a-f]{16}$/);
  });

  it('presave: needs a campaign account, a named item, and a participating territory', async () => {
    const c = await releaseCampaign({ apple: { album_id: null, song_ids: [] } });
    expect((await failure(cmsApi(ts).call('presave', { params: { id: c.id }, body: { save: 'album', follow_artist: false, locale: 'en', host_url: 'https://x.example/' } }))).status).toBe(401);
    const spotify = await campaignSpotifyAccount(ts, c.id, c.url, `rules-${db}`);
    expect((await failure(asFan(spotify, 'FR').save({ save: 'album' }, c.id))).status).toBe(422);
    const apple = await campaignAppleAccount(ts, c.id, `rules-apple-${db}`);
    expect((await failure(asFan(apple).save({ save: 'album' }, c.id))).status).toBe(422);
  });

  it('at release in the fan’s territory the album is saved and the artist followed once, with a receipt', async () => {
    const c = await releaseCampaign();
    const fan = `release-${db}`;
    const token = await campaignSpotifyAccount(ts, c.id, c.url, fan);
    const p = await asFan(token).save({ save: 'album', follow_artist: true, email: 'fan@example.com' }, c.id);
    expect((await libraryOf(ts, 'spotify', fan)).albums).toEqual([]);
    setClock(Date.parse(c.data.release!.clock.mode === 'instant' ? c.data.release!.clock.at : '') + 1000);
    const done = await runUntil(p.id, (x) => x.state === 'done' && x.receipt_sent_at !== null);
    expect(done.attempts).toBe(1);
    expect(done.results.map((r) => [r.step, r.outcome])).toEqual([
      ['save_album', 'ok'],
      ['follow_artist', 'ok'],
    ]);
    const lib = await libraryOf(ts, 'spotify', fan);
    expect(lib.albums).toEqual([album.spotify]);
    expect(lib.artists).toEqual([album.artist]);
    expect(lib.writes).toBe(2);
    const receipts = (await ts.server.ctx.mailer.outbox()).filter((m) => m.to === 'demo.fan@example.com' || m.to === 'fan@example.com');
    expect(receipts.filter((m) => m.subject.includes(`"${c.name}"`))).toHaveLength(1);
    // A ran pre-save is final.
    const again = await campaignSpotifyAccount(ts, c.id, c.url, fan);
    expect((await failure(asFan(again).save({ save: 'tracks' }, c.id))).status).toBe(409);
  });

  it('an unavailable territory stays in pre-release: nothing is saved there, the other territory flips', async () => {
    const c = await releaseCampaign({ apple: { album_id: null, song_ids: [] } });
    await setAvailable(ts, 'spotify', album.spotify, 'GB', false);
    try {
      const de = await campaignSpotifyAccount(ts, c.id, c.url, `avail-de-${db}`);
      const gb = await campaignSpotifyAccount(ts, c.id, c.url, `avail-gb-${db}`);
      const deSave = await asFan(de, 'DE').save({ save: 'album' }, c.id);
      const gbSave = await asFan(gb, 'GB').save({ save: 'album' }, c.id);
      setClock(clockAt + 25 * HOUR);
      await runUntil(deSave.id, (x) => x.state === 'done');
      const territories = await waitFor(async () => {
        const r = await cmsApi(ts, await adminToken()).call('presaveReport', { params: { id: c.id } });
        return r.territories.find((t) => t.country === 'GB')?.state === 'unavailable' ? r : null;
      }, 400);
      expect(territories.territories.map((t) => [t.country, t.state])).toEqual([
        ['DE', 'released'],
        ['GB', 'unavailable'],
      ]);
      expect(territories.totals).toMatchObject({ done: 1, pending: 1 });
      expect((await stored(gbSave.id)).state).toBe('pending');
      expect((await libraryOf(ts, 'spotify', `avail-gb-${db}`)).albums).toEqual([]);
      // The page in GB stays in pre-release, and hides the service that lacks the release.
      const gbRelease = await cmsApi(ts).call('getTerritoryRelease', { params: { id: c.id, country: 'GB' } });
      expect(gbRelease).toMatchObject({ state: 'unavailable', services: ['apple'] });
      const deRelease = await cmsApi(ts).call('getTerritoryRelease', { params: { id: c.id, country: 'DE' } });
      expect(deRelease).toMatchObject({ state: 'released', services: ['spotify', 'apple'] });
    } finally {
      await setAvailable(ts, 'spotify', album.spotify, 'GB', true);
    }
  });

  it('a failing provider call is retried with backoff, and succeeds later', async () => {
    const c = await releaseCampaign();
    const fan = `retry-${db}`;
    const token = await campaignSpotifyAccount(ts, c.id, c.url, fan);
    const p = await asFan(token).save({ save: 'tracks' }, c.id);
    await armFault(ts, 'spotify', fan, 503, 1);
    setClock(clockAt + 25 * HOUR);
    const first = await runUntil(p.id, (x) => x.attempts === 1 && x.state === 'pending' && x.results.length > 0);
    expect(first.results).toEqual([{ step: 'save_tracks', outcome: 'failed', detail: 'spotify answered 503' }]);
    expect(Date.parse(first.due_at!) - clockAt).toBeGreaterThanOrEqual(30_000);
    expect((await libraryOf(ts, 'spotify', fan)).tracks).toEqual([]);
    setClock(clockAt + 31_000);
    const done = await runUntil(p.id, (x) => x.state === 'done');
    expect(done.attempts).toBe(2);
    expect((await libraryOf(ts, 'spotify', fan)).tracks).toEqual(album.tracks);
  });

  it('an expired Spotify token is refreshed before the saves', async () => {
    const c = await releaseCampaign();
    const fan = `refresh-${db}`;
    const token = await campaignSpotifyAccount(ts, c.id, c.url, fan);
    const p = await asFan(token).save({ save: 'album' }, c.id);
    const account = await ts.server.ctx.db.selectFrom('cms_presaves').select('account_id').where('campaign_id', '=', c.id).executeTakeFirstOrThrow();
    await ts.server.ctx.db.updateTable('cms_accounts').set({ service_access_token: 'expired-token', service_expires_at: clockAt - 1000 }).where('id', '=', account.account_id).execute();
    setClock(clockAt + 25 * HOUR);
    const done = await runUntil(p.id, (x) => x.state === 'done');
    expect(done.attempts).toBe(1);
    const tokens = await ts.server.ctx.db.selectFrom('cms_accounts').select(['service_access_token', 'service_expires_at']).where('id', '=', account.account_id).executeTakeFirstOrThrow();
    expect(tokens.service_access_token).not.toBe('expired-token');
    expect((await libraryOf(ts, 'spotify', fan)).albums).toEqual([album.spotify]);
  });

  it('apple: the album is added to the library; following is skipped (no such call)', async () => {
    const c = await releaseCampaign();
    const fan = `apple-${db}`;
    const token = await campaignAppleAccount(ts, c.id, fan);
    const p = await asFan(token).save({ save: 'album', follow_artist: true, email: 'apple.fan@example.com' }, c.id);
    setClock(clockAt + 25 * HOUR);
    const done = await runUntil(p.id, (x) => x.state === 'done' && x.receipt_sent_at !== null);
    expect(done.results.map((r) => r.outcome)).toEqual(['ok', 'skipped']);
    expect((await libraryOf(ts, 'apple', fan)).albums).toEqual([album.apple]);
    expect((await ts.server.ctx.mailer.outbox()).some((m) => m.to === 'apple.fan@example.com')).toBe(true);
  });

  it('a withdrawn pre-save does not run', async () => {
    const c = await releaseCampaign();
    const fan = `cancel-${db}`;
    const token = await campaignSpotifyAccount(ts, c.id, c.url, fan);
    await asFan(token).save({ save: 'album' }, c.id);
    await cmsApi(ts, token).call('cancelPresave', { params: { id: c.id } });
    expect((await asFan(token).get(c.id)).state).toBe('cancelled');
  });

  it('exactly once per fan across nodes: two more schedulers on their own connections race the server’s', async () => {
    const c = await releaseCampaign();
    const fans = Array.from({ length: 8 }, (_, i) => `race-${db}-${i}`);
    const ids: string[] = [];
    for (const fan of fans) {
      const token = await campaignSpotifyAccount(ts, c.id, c.url, fan);
      ids.push((await asFan(token).save({ save: 'album', follow_artist: true }, c.id)).id);
    }
    const outboxBefore = (await ts.server.ctx.mailer.outbox()).length;
    setClock(clockAt + 25 * HOUR);
    // Two other "nodes": the same program's job on connections of their own to the same database.
    const nodes = [openDatabase(ts.server.ctx.config.databaseUrl), openDatabase(ts.server.ctx.config.databaseUrl)];
    try {
      const jobs = nodes.map((n) => presaveJob({ ...ts.server.ctx, db: n.db } satisfies ServerContext));
      for (let round = 0; round < 3; round++) await Promise.all([...jobs.map((j) => j.runDue(clockAt)), ...jobs.map((j) => j.runDue(clockAt))]);
      for (const id of ids) await runUntil(id, (x) => x.state === 'done' && x.receipt_sent_at !== null);
    } finally {
      for (const n of nodes) await n.close();
    }
    for (const [i, fan] of fans.entries()) {
      expect((await stored(ids[i]!)).attempts).toBe(1);
      expect((await libraryOf(ts, 'spotify', fan)).writes).toBe(2);
    }
    const receipts = (await ts.server.ctx.mailer.outbox()).slice(outboxBefore).filter((m) => m.subject.includes(`"${c.name}"`));
    expect(receipts).toHaveLength(fans.length);
  });
});
