import { describe, expect, it } from 'vitest';
import {
  AppleRelease,
  Presave,
  PresaveBody,
  PresaveReport,
  ReleaseClock,
  ReleaseLocalTime,
  ReleaseSettings,
  ReleaseTimeZone,
  SpotifyRelease,
  TerritoryClock,
  TerritoryCode,
  TerritoryParams,
  TerritoryRelease,
} from './presave.ts';
import { refusal } from '../test/schemaChecks.ts';

const presave = {
  id: 'ps1',
  campaign_id: 'c1',
  service: 'spotify',
  territory: 'DE',
  save: 'tracks',
  follow_artist: true,
  state: 'done',
  due_at: '2025-05-02T22:00:00Z',
  attempts: 1,
  results: [
    { step: 'save_tracks', outcome: 'ok', detail: null },
    { step: 'follow_artist', outcome: 'skipped', detail: 'no follow on Apple' },
    { step: 'save_album', outcome: 'failed', detail: '502' },
  ],
  created_at: '2025-05-01T10:00:00Z',
  done_at: '2025-05-02T22:00:05Z',
  receipt_sent_at: null,
};
const counts = { pending: 3, done: 2, failed: 1, cancelled: 0 };
const territory = {
  country: 'AT',
  time_zone: 'Europe/Vienna',
  release_at: '2025-05-02T22:00:00Z',
  state: 'unavailable',
  services: ['spotify', 'apple'],
  checked_at: null,
};

describe('pre-save: the release clock', () => {
  it('territories are upper-case country codes', () => {
    expect(TerritoryCode.safeParse('DE').success).toBe(true);
    for (const bad of ['de', 'D', 'DEU', 'D1', ' DE']) expect(TerritoryCode.safeParse(bad).success, bad).toBe(false);
    expect(refusal(TerritoryCode, 'de')).toMatch(/country code/);
  });

  it('local times are YYYY-MM-DDTHH:mm with real months, days, hours and minutes', () => {
    for (const ok of ['2025-01-01T00:00', '2025-12-31T23:59', '2025-02-10T19:30', '2025-10-20T09:05']) {
      expect(ReleaseLocalTime.safeParse(ok).success, ok).toBe(true);
    }
    for (const bad of [
      '2025-00-01T00:00',
      '2025-13-01T00:00',
      '2025-01-00T00:00',
      '2025-01-32T00:00',
      '2025-01-01T24:00',
      '2025-01-01T00:60',
      '2025-1-01T00:00',
      '25-01-01T00:00',
      '2025-01-01 00:00',
      '2025-01-01T00:00:00',
      'x2025-01-01T00:00',
      '2025-01-01T00:00Z',
      'abcd-01-01T00:00',
    ]) {
      expect(ReleaseLocalTime.safeParse(bad).success, bad).toBe(false);
    }
    expect(refusal(ReleaseLocalTime, '2025-01-01 00:00')).toMatch(/YYYY-MM-DDTHH:mm/);
  });

  it('time zones: IANA names this runtime knows, 1 to 64 long', () => {
    expect(ReleaseTimeZone.safeParse('Europe/Berlin').success).toBe(true);
    expect(ReleaseTimeZone.safeParse('Mars/Olympus').success).toBe(false);
    expect(refusal(ReleaseTimeZone, 'Mars/Olympus')).toMatch(/IANA time zone/);
    expect(ReleaseTimeZone.safeParse('').success).toBe(false);
    expect(ReleaseTimeZone.safeParse(`Europe/${'x'.repeat(60)}`).success).toBe(false);
    expect(TerritoryClock.parse({ local_time: '2025-05-02T00:00', time_zone: 'America/New_York' })).toEqual({
      local_time: '2025-05-02T00:00',
      time_zone: 'America/New_York',
    });
    expect(TerritoryClock.safeParse({ zone: 'Europe/Berlin' }).success).toBe(false);
  });

  it('a clock is one instant, or a local time with per-territory exceptions', () => {
    expect(ReleaseClock.parse({ mode: 'instant', at: '2025-05-02T00:00:00Z' })).toEqual({ mode: 'instant', at: '2025-05-02T00:00:00Z' });
    expect(ReleaseClock.parse({ mode: 'local', local_time: '2025-05-02T00:00' })).toEqual({ mode: 'local', local_time: '2025-05-02T00:00', territories: {} });
    const local = { mode: 'local', local_time: '2025-05-02T00:00', territories: { US: { time_zone: 'America/Los_Angeles' } } };
    expect(ReleaseClock.parse(local)).toEqual(local);
    expect(ReleaseClock.safeParse({ ...local, territories: { us: {} } }).success).toBe(false);
    expect(ReleaseClock.safeParse({ mode: 'instant', at: '2025-05-02T00:00:00Z', extra: 1 }).success).toBe(false);
    expect(ReleaseClock.safeParse({ mode: 'local', local_time: '2025-05-02T00:00', at: '2025-05-02T00:00:00Z' }).success).toBe(false);
  });
});

describe('pre-save: the release per provider', () => {
  it('release settings keep both providers and the consent wording', () => {
    const settings = {
      clock: { mode: 'instant', at: '2025-05-02T00:00:00Z' },
      spotify: { album_id: 'al.1', track_ids: ['t_1', 't-2'], artist_ids: ['ar1'] },
      apple: { album_id: '123', song_ids: ['456'] },
      consent_text: { de: 'Ja', en: 'Yes' },
    };
    expect(ReleaseSettings.parse(settings)).toEqual(settings);
    expect(ReleaseSettings.parse({ clock: settings.clock })).toEqual({ clock: settings.clock, consent_text: {} });
    expect(ReleaseSettings.safeParse({ ...settings, deezer: {} }).success).toBe(false);
  });

  it('provider ids are 1 to 100 safe characters; lists are bounded; defaults are empty', () => {
    expect(SpotifyRelease.parse({})).toEqual({ album_id: null, track_ids: [], artist_ids: [] });
    expect(AppleRelease.parse({})).toEqual({ album_id: null, song_ids: [] });
    for (const bad of ['', 'a b', 'a/b', 'x'.repeat(101), 'ä']) expect(SpotifyRelease.safeParse({ album_id: bad }).success, bad).toBe(false);
    expect(refusal(SpotifyRelease, { album_id: 'a/b' })).toMatch(/provider id/);
    expect(SpotifyRelease.safeParse({ album_id: 'x'.repeat(100) }).success).toBe(true);
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `id${i}`);
    expect(SpotifyRelease.safeParse({ track_ids: ids(50), artist_ids: ids(5) }).success).toBe(true);
    expect(SpotifyRelease.safeParse({ track_ids: ids(51) }).success).toBe(false);
    expect(SpotifyRelease.safeParse({ artist_ids: ids(6) }).success).toBe(false);
    expect(AppleRelease.safeParse({ song_ids: ids(50) }).success).toBe(true);
    expect(AppleRelease.safeParse({ song_ids: ids(51) }).success).toBe(false);
    expect(AppleRelease.safeParse({ artist_ids: ids(1) }).success).toBe(false);
  });
});

describe('pre-save: the fan and the back office', () => {
  it("a fan's pre-save: album or tracks, a locale, the page and an optional receipt address", () => {
    const body = { save: 'album', follow_artist: true, locale: 'pt-BR', host_url: 'https://label.example/p', email: 'fan@example.com' };
    expect(PresaveBody.parse(body)).toEqual(body);
    expect(PresaveBody.parse({ save: 'tracks', locale: 'de', host_url: 'https://label.example/p' })).toEqual({
      save: 'tracks',
      follow_artist: false,
      locale: 'de',
      host_url: 'https://label.example/p',
    });
    for (const locale of ['DE', 'd', 'de-', 'de-B', 'x'.repeat(36), '1de', 'de de']) {
      expect(PresaveBody.safeParse({ ...body, locale }).success, locale).toBe(false);
    }
    expect(PresaveBody.safeParse({ ...body, save: 'playlist' }).success).toBe(false);
    expect(PresaveBody.safeParse({ ...body, host_url: `https://label.example/${'x'.repeat(2000)}` }).success).toBe(false);
    expect(PresaveBody.safeParse({ ...body, email: `${'e'.repeat(250)}@x.example` }).success).toBe(false);
  });

  it('a pre-save as stored, with its step results', () => {
    expect(Presave.parse(presave)).toEqual(presave);
    for (const key of Object.keys(presave)) {
      const { [key]: _dropped, ...without } = presave as Record<string, unknown>;
      expect(Presave.safeParse(without).success, `without ${key}`).toBe(false);
    }
    expect(Presave.safeParse({ ...presave, results: [{ step: 'save_album', outcome: 'ok', detail: 'x'.repeat(501) }] }).success).toBe(false);
    expect(Presave.safeParse({ ...presave, results: [{ step: 'save_album', outcome: 'ok' }] }).success).toBe(false);
    expect(Presave.safeParse({ ...presave, service: 'deezer' }).success).toBe(false);
    expect(Presave.parse({ ...presave, service: 'apple', state: 'cancelled' }).service).toBe('apple');
    for (const state of ['pending', 'failed']) expect(Presave.parse({ ...presave, state }).state).toBe(state);
  });

  it('the release per territory and the back office report', () => {
    expect(TerritoryRelease.parse(territory)).toEqual(territory);
    expect(TerritoryRelease.safeParse({ ...territory, services: ['deezer'] }).success).toBe(false);
    for (const state of ['pending', 'released']) expect(TerritoryRelease.parse({ ...territory, state }).state).toBe(state);
    expect(TerritoryParams.parse({ id: 'c1', country: 'DE' })).toEqual({ id: 'c1', country: 'DE' });
    expect(TerritoryParams.safeParse({ id: 'c1', country: 'de' }).success).toBe(false);
    const report = { territories: [{ ...territory, counts }], totals: counts, recent: [presave] };
    expect(PresaveReport.parse(report)).toEqual(report);
    expect(PresaveReport.safeParse({ ...report, territories: [territory] }).success).toBe(false);
    for (const key of Object.keys(counts)) {
      const { [key]: _dropped, ...without } = counts as Record<string, unknown>;
      expect(PresaveReport.safeParse({ ...report, totals: without }).success, `totals without ${key}`).toBe(false);
    }
  });
});
