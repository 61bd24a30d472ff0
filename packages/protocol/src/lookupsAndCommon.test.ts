import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AppleDataResponse,
  AppleLookupParams,
  PreviewManifestQuery,
  PreviewSegmentParams,
  SeveralTracksQuery,
  SeveralTracksResponse,
  SpotifyAlbum,
  SpotifyArtist,
  SpotifyLookupParams,
  SpotifyPlaylist,
  SpotifyTrack,
} from './campaign/lookups.ts';
import {
  BRIDGE_CHANNEL,
  CAMPAIGN_DEFAULT_LOCALE,
  CAMPAIGN_ENVIRONMENT_ALIASES,
  CAMPAIGN_LOGIN_STATE,
  CAMPAIGN_PREVIEW_PARAM,
  PLURAL_FORM_PATTERN,
  PREVIEW_MANIFEST_PATH,
  TOKEN_GATE_ACCESS_KEY_HEADER,
  TOKEN_GATE_ACCESS_KEY_PARAM,
  isLocalhostOrigin,
} from './campaign/constants.ts';
import { ErrorBody, JSON_LIMITS, WebUrl, boundedJson, boundedText, headerToken, jsonSize, listOf } from './common.ts';
import { SourceCounts, SourceFrame, SourceReport, emptySourceCounts } from './party/source.ts';
import { MUSICKIT_JS_URL, PROVIDER_SDK_LOAD_ERROR_EVENT, SPOTIFY_PLAYER_JS_URL } from './providerSdks.ts';

const ok = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

describe('campaign spec constants (§2, §5, §7, §9)', () => {
  it('names, parameters and paths of the contract', () => {
    expect(CAMPAIGN_LOGIN_STATE).toBe('cms_account_auth');
    expect(TOKEN_GATE_ACCESS_KEY_HEADER).toBe('token-gate-access-key');
    expect(TOKEN_GATE_ACCESS_KEY_PARAM).toBe('token_gate_access_key');
    expect(CAMPAIGN_PREVIEW_PARAM).toBe('preview');
    expect(CAMPAIGN_DEFAULT_LOCALE).toBe('de');
    expect(BRIDGE_CHANNEL).toBe('fanfare-campaign');
    expect(PREVIEW_MANIFEST_PATH).toBe('/api/previews/manifest.m3u8');
    expect(CAMPAIGN_ENVIRONMENT_ALIASES).toEqual({ staging: 'staging', production: 'production', live: 'production', prod: 'production', local: 'local' });
  });

  it('the official SDK URLs and the load-error event', () => {
    expect(MUSICKIT_JS_URL).toBe('https://js-cdn.music.apple.com/musickit/v3/musickit.js');
    expect(SPOTIFY_PLAYER_JS_URL).toBe('https://sdk.scdn.co/spotify-player.js');
    expect(PROVIDER_SDK_LOAD_ERROR_EVENT).toBe('fanfare:load-error');
  });

  it('plural rules: numeric rules with spaces anywhere pass, anything else does not', () => {
    for (const rule of ['nplurals=2; plural=(n != 1);', '  nplurals = 3 ; plural = (n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2) ', 'nplurals=12;plural=n>1', 'nplurals =1; plural =0;']) expect(PLURAL_FORM_PATTERN.test(rule), rule).toBe(true);
    for (const rule of ['x nplurals=2; plural=(n != 1);', 'nplurals=2; plural=(n != 1); alert(1)', 'nplurals=; plural=n', 'nplurals=2 plural=n', 'nplurals=2; plural=', 'nplurals=2; plural=n;;', 'nplurals=2;xplural=n', 'nplurals2; plural=n', 'nplurals=2; plural n'])
      expect(PLURAL_FORM_PATTERN.test(rule), rule).toBe(false);
  });

  it('localhost origins: localhost, 127.0.0.1 and [::1], with or without a port, and nothing around them', () => {
    for (const o of ['http://localhost', 'https://localhost:1337', 'http://127.0.0.1:8080', 'http://[::1]:3000']) expect(isLocalhostOrigin(o), o).toBe(true);
    for (const o of ['http://localhost.evil.example', 'http://evil.example/http://localhost', 'ftp://localhost', 'http://localhost:', 'http://localhost/x']) expect(isLocalhostOrigin(o), o).toBe(false);
  });
});

describe('music lookup schemas (spec 7 "Music lookups")', () => {
  it('several tracks: comma-separated ids, trimmed, empty entries dropped, 1 to 50 alphanumeric ids of up to 64', () => {
    expect(SeveralTracksQuery.parse({ ids: ' a1 ,,b2, ' }).ids).toEqual(['a1', 'b2']);
    expect(ok(SeveralTracksQuery, { ids: ',' })).toBe(false);
    expect(ok(SeveralTracksQuery, { ids: 'a-1' })).toBe(false);
    expect(ok(SeveralTracksQuery, { ids: 'x'.repeat(64) })).toBe(true);
    expect(ok(SeveralTracksQuery, { ids: 'x'.repeat(65) })).toBe(false);
    expect(ok(SeveralTracksQuery, { ids: Array.from({ length: 50 }, (_, i) => `t${i}`).join(',') })).toBe(true);
    expect(ok(SeveralTracksQuery, { ids: Array.from({ length: 51 }, (_, i) => `t${i}`).join(',') })).toBe(false);
  });

  it('ids in paths: Spotify alphanumeric, Apple a two-letter storefront and an id of letters, digits, _ . -', () => {
    expect(ok(SpotifyLookupParams, { id: 'abc123' })).toBe(true);
    for (const id of ['', 'a b', 'x'.repeat(65), 'ab/..', '-a']) expect(ok(SpotifyLookupParams, { id }), id).toBe(false);
    expect(ok(AppleLookupParams, { storefront: 'us', id: 'pl.u-abc_1' })).toBe(true);
    for (const storefront of ['u', 'usa', '1s', ' us']) expect(ok(AppleLookupParams, { storefront, id: '1' }), storefront).toBe(false);
    for (const id of ['', 'a/b', 'x'.repeat(65), '%2e', ' 1']) expect(ok(AppleLookupParams, { storefront: 'us', id }), id).toBe(false);
  });

  it('preview manifest and segments: a track id, a callback of letters, digits and . _ : -, folders and segNNN.ts', () => {
    expect(ok(PreviewManifestQuery, { id: 'abc', callback: 'c1:page_a.b-c' })).toBe(true);
    expect(ok(PreviewManifestQuery, { id: 'abc' })).toBe(true);
    expect(PreviewManifestQuery.safeParse({ id: 'a b' }).error?.issues[0]?.message).toBe('Expected a track id');
    expect(PreviewManifestQuery.safeParse({ id: 'a', callback: 'x y' }).error?.issues[0]?.message).toBe('Expected letters, digits and . _ : - only');
    for (const callback of ['', 'c'.repeat(101), 'a/b', '-<']) expect(ok(PreviewManifestQuery, { id: 'a', callback }), callback).toBe(false);
    expect(ok(PreviewManifestQuery, { id: 'a', callback: 'c'.repeat(100) })).toBe(true);
    expect(ok(PreviewManifestQuery, { id: 'x'.repeat(65) })).toBe(false);
    expect(ok(PreviewSegmentParams, { audio: 'neon-harbour-01', segment: 'seg000.ts' })).toBe(true);
    for (const audio of ['', 'Neon', '-a', 'a-', 'a--b', '../a', 'a b']) expect(ok(PreviewSegmentParams, { audio, segment: 'seg001.ts' }), audio).toBe(false);
    for (const segment of ['seg1.ts', 'seg0001.ts', 'segabc.ts', 'xseg001.ts', 'seg001.tsx', 'seg001.m3u8']) expect(ok(PreviewSegmentParams, { audio: 'a', segment }), segment).toBe(false);
  });

  it('provider answers are read loosely but with their required fields', () => {
    const track = { id: 't', name: 'T', duration_ms: 1, artists: [{ id: 'a', name: 'A' }], extra: 1 };
    expect(SeveralTracksResponse.parse({ tracks: [track, null] }).tracks[0]).toMatchObject({ extra: 1 });
    expect(ok(SeveralTracksResponse, { tracks: [{ id: 't' }] })).toBe(false);
    const image = { url: 'u', width: null, height: 3 };
    expect(ok(SpotifyAlbum, { id: 'al', name: 'N', images: [image], tracks: { items: [track], total: 1 } })).toBe(true);
    expect(ok(SpotifyAlbum, { id: 'al', name: 'N', images: [image], tracks: { items: [{ id: 1 }] } })).toBe(false);
    expect(ok(SpotifyAlbum, { id: 'al', name: 'N', images: [{ url: 1 }], tracks: { items: [] } })).toBe(false);
    expect(ok(SpotifyPlaylist, { id: 'p', name: 'P', images: [], tracks: { items: [{ track: null }, { track }, {}] } })).toBe(true);
    expect(ok(SpotifyPlaylist, { id: 'p', name: 'P', images: [], tracks: { items: [{ track: { id: 'x' } }] } })).toBe(false);
    expect(ok(SpotifyArtist, { id: 'a', name: 'A' })).toBe(true);
    expect(ok(SpotifyArtist, { id: 'a' })).toBe(false);
    expect(ok(AppleDataResponse, { data: [{ id: '1', type: 'albums', attributes: {} }] })).toBe(true);
    expect(ok(AppleDataResponse, { data: [{ id: '1' }] })).toBe(false);
    expect(ok(AppleDataResponse, {})).toBe(false);
  });
});

describe('common schemas', () => {
  it('JSON size in UTF-8 bytes and the longest key, at any depth', () => {
    expect(jsonSize({ ab: 'é', nested: { longest_key: [1] } })).toEqual({ bytes: new TextEncoder().encode(JSON.stringify({ ab: 'é', nested: { longest_key: [1] } })).length, longestKey: 11 });
    expect(jsonSize(undefined)).toEqual({ bytes: 0, longestKey: 0 });
    expect(jsonSize('x')).toEqual({ bytes: 3, longestKey: 0 });
  });

  it('bounded JSON refuses a document past its bytes or with a key past the key limit', () => {
    const doc = boundedJson(z.record(z.string(), z.unknown()), 20);
    expect(ok(doc, { a: 'short' })).toBe(true);
    expect(doc.safeParse({ a: 'x'.repeat(30) }).error?.issues[0]?.message).toMatch(/^Larger than 20 bytes as JSON/);
    const keys = boundedJson(z.record(z.string(), z.unknown()), 10_000);
    expect(ok(keys, { ['k'.repeat(JSON_LIMITS.keyLength)]: 1 })).toBe(true);
    expect(keys.safeParse({ ['k'.repeat(JSON_LIMITS.keyLength + 1)]: 1 }).error?.issues[0]?.message).toBe(`A key is longer than ${JSON_LIMITS.keyLength} characters`);
  });

  it('web URLs: absolute http(s) or a path on our host; never protocol-relative, other schemes or spaces', () => {
    for (const u of ['https://a.example/x.png', 'HTTP://a.example', '/uploads/a.png', '/']) expect(ok(WebUrl, u), u).toBe(true);
    for (const u of ['//evil.example/x', 'javascript:alert(1)', 'ftp://a.example', 'https://a b', 'uploads/a.png', ' /x', 'x/https://a.example', '/a b', 'https://']) expect(ok(WebUrl, u), u).toBe(false);
    expect(WebUrl.safeParse('x').error?.issues[0]?.message).toBe('Expected an http(s) URL or a path starting with /');
  });

  it('bounded text and header tokens', () => {
    expect(ok(boundedText(3), 'abc')).toBe(true);
    expect(ok(boundedText(3), 'abcd')).toBe(false);
    expect(ok(headerToken(5), 'a!~Z9')).toBe(true);
    for (const t of ['', 'a b', 'ä', 'abcdef', 'a\n']) expect(ok(headerToken(5), t), JSON.stringify(t)).toBe(false);
    expect(headerToken(5).safeParse('a b').error?.issues[0]?.message).toBe('Expected printable ASCII characters only');
  });

  it('error bodies and list envelopes', () => {
    expect(ok(ErrorBody, { detail: 'x' })).toBe(true);
    expect(ok(ErrorBody, { detail: { message: 'taken', type: 'DuplicateSignupError', fields: ['email'], extra: 1 } })).toBe(true);
    expect(ok(ErrorBody, { detail: { type: 'X' } })).toBe(false);
    expect(ok(ErrorBody, { detail: [{ loc: ['body', 0], msg: 'm', type: 't' }] })).toBe(true);
    expect(ok(ErrorBody, { detail: [{ loc: ['body'], msg: 'm' }] })).toBe(false);
    expect(listOf(z.number()).parse({ items: [1, 2] })).toEqual({ items: [1, 2] });
    expect(ok(listOf(z.number()), { items: ['1'] })).toBe(false);
    expect(ok(listOf(z.number()), [1])).toBe(false);
  });
});

describe('listening source reports', () => {
  it('a report is a source and a reason, nothing else; the frame adds type source; counts start at zero', () => {
    expect(SourceReport.parse({ source: 'provider', reason: 'provider_ok' })).toEqual({ source: 'provider', reason: 'provider_ok' });
    expect(ok(SourceReport, { source: 'provider', reason: 'provider_ok', extra: 1 })).toBe(false);
    expect(ok(SourceReport, { source: 'radio', reason: 'provider_ok' })).toBe(false);
    expect(SourceFrame.parse({ type: 'source', source: 'preview', reason: 'no_login' })).toEqual({ type: 'source', source: 'preview', reason: 'no_login' });
    expect(ok(SourceFrame, { type: 'sources', source: 'preview', reason: 'no_login' })).toBe(false);
    expect(ok(SourceFrame, { source: 'preview', reason: 'no_login' })).toBe(false);
    expect(emptySourceCounts()).toEqual({ provider: 0, label_stream: 0, preview: 0, none: 0, unknown: 0 });
    expect(ok(SourceCounts, emptySourceCounts())).toBe(true);
    expect(ok(SourceCounts, { ...emptySourceCounts(), preview: -1 })).toBe(false);
    expect(ok(SourceCounts, { ...emptySourceCounts(), none: 1.5 })).toBe(false);
    expect(ok(SourceCounts, { provider: 0 })).toBe(false);
  });

  it("a Spotify track's artists and album must have their names (and the album its images)", () => {
    const track = { id: 't1', name: 'Intro', duration_ms: 1000, artists: [{ id: 'a1', name: 'Band' }], album: { name: 'Record', images: [] } };
    expect(SpotifyTrack.parse(track)).toEqual(track);
    expect(SpotifyTrack.safeParse({ ...track, artists: [{ id: 'a1' }] }).success).toBe(false);
    expect(SpotifyTrack.safeParse({ ...track, album: { name: 'Record' } }).success).toBe(false);
    expect(SpotifyTrack.safeParse({ ...track, album: { images: [] } }).success).toBe(false);
  });
});
