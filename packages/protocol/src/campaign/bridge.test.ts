import { describe, expect, it } from 'vitest';
import {
  BRIDGE_CHANNEL,
  BRIDGE_MESSAGE_TYPES,
  isAllowedBridgeOrigin,
  parseEditorToPageMessage,
  parsePageToEditorMessage,
} from '../index.ts';

const campaign = {
  id: 'c1',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  app: 'fan-pages',
  app_id: 'a1',
  name: 'Demo',
  slug: 'demo',
  meta_tags: {},
  tag_manager: {},
  test: false,
  wp_url: null,
  newsletter: null,
  newsletters: [],
  enabled_services: ['spotify'],
  starts_at: null,
  ends_at: null,
  i18n: null,
  url: 'http://127.0.0.1:1337/c/fan-pages/demo',
  token_gate: { enabled: false, product_id: null },
  token_gated_campaign_url: null,
  token_gate_url: null,
  is_token_gate: false,
  parent_id: null,
  data: {},
  lock: null,
};

describe('campaign spec §7 editor messaging: bridge schemas', () => {
  it('campaign spec §7: names exactly the nine editor message types', () => {
    expect([...BRIDGE_MESSAGE_TYPES].sort()).toEqual(
      ['campaignInfo:v2', 'campaignSaved', 'campaignUrl', 'mediaPicked', 'openMediaLibrary:v2', 'ready', 'ready:v2', 'theme', 'token'].sort(),
    );
  });

  it('campaign spec §7: openMediaLibrary:v2 carries fieldId, currentFileUrl, targetWidth, targetHeight and a request id', () => {
    const frame = { channel: BRIDGE_CHANNEL, type: 'openMediaLibrary:v2', requestId: 'r1', fieldId: 'hero.image', currentFileUrl: null, targetWidth: 800, targetHeight: 600 };
    expect(parsePageToEditorMessage(frame)).toEqual({ ok: true, message: frame });
    const noId = parsePageToEditorMessage({ ...frame, requestId: undefined });
    expect(noId.ok).toBe(false);
  });

  it('campaign spec §7: page-side hellos ready and ready:v2 parse', () => {
    expect(parsePageToEditorMessage({ channel: BRIDGE_CHANNEL, type: 'ready' }).ok).toBe(true);
    expect(parsePageToEditorMessage({ channel: BRIDGE_CHANNEL, type: 'ready:v2', requestId: 'r', version: 2 }).ok).toBe(true);
    expect(parsePageToEditorMessage({ channel: BRIDGE_CHANNEL, type: 'campaignUrl', url: 'javascript:alert(1)' }).ok).toBe(false);
  });

  it('campaign spec §6: token carries the editor access token; answers repeat the request id as replyTo', () => {
    const r = parseEditorToPageMessage({ channel: BRIDGE_CHANNEL, type: 'token', token: 'cms-token', replyTo: 'r1' });
    expect(r).toEqual({ ok: true, message: { channel: BRIDGE_CHANNEL, type: 'token', token: 'cms-token', replyTo: 'r1' } });
  });

  it('campaign spec §7: campaignInfo:v2 carries a whole campaign and an optional simulation', () => {
    const ok = parseEditorToPageMessage({ channel: BRIDGE_CHANNEL, type: 'campaignInfo:v2', campaign, simulation: { locale: 'en', country: 'DE', login: null } });
    expect(ok.ok).toBe(true);
    const bad = parseEditorToPageMessage({ channel: BRIDGE_CHANNEL, type: 'campaignInfo:v2', campaign: { ...campaign, id: undefined } });
    expect(bad).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('campaign spec §7: mediaPicked answers with the field and a URL, or null when cancelled; theme is checked', () => {
    expect(parseEditorToPageMessage({ channel: BRIDGE_CHANNEL, type: 'mediaPicked', replyTo: 'r1', fieldId: 'f', url: null }).ok).toBe(true);
    expect(parseEditorToPageMessage({ channel: BRIDGE_CHANNEL, type: 'theme', theme: { font: 'rubik', primary_color: '#ff8800' } }).ok).toBe(true);
    expect(parseEditorToPageMessage({ channel: BRIDGE_CHANNEL, type: 'theme', theme: { font: 'comic-sans' } }).ok).toBe(false);
  });

  it('campaign spec §5: frames without our channel, unknown types and extra fields are refused, never thrown', () => {
    expect(parseEditorToPageMessage('hello')).toMatchObject({ ok: false, reason: 'not-bridge' });
    expect(parseEditorToPageMessage({ type: 'token', token: 'x' })).toMatchObject({ ok: false, reason: 'not-bridge' });
    expect(parseEditorToPageMessage({ channel: BRIDGE_CHANNEL, type: 'evil' })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(parseEditorToPageMessage({ channel: BRIDGE_CHANNEL, type: 'token', token: 'x', extra: 1 })).toMatchObject({ ok: false, reason: 'invalid' });
    // a page frame is not an editor frame
    expect(parseEditorToPageMessage({ channel: BRIDGE_CHANNEL, type: 'ready' }).ok).toBe(false);
  });

  it('campaign spec §5: message origin must be on the allow-list, or localhost when the receiver is on localhost', () => {
    const allowed = ['https://cms.fanfare.example', 'https://staging.cms.fanfare.example'];
    expect(isAllowedBridgeOrigin('https://cms.fanfare.example', allowed, 'https://cms.fanfare.example')).toBe(true);
    expect(isAllowedBridgeOrigin('https://evil.example', allowed, 'https://cms.fanfare.example')).toBe(false);
    expect(isAllowedBridgeOrigin('http://localhost:5173', allowed, 'https://cms.fanfare.example')).toBe(false);
    expect(isAllowedBridgeOrigin('http://localhost:5173', allowed, 'http://localhost:1337')).toBe(true);
    expect(isAllowedBridgeOrigin('http://localhost.evil.example', allowed, 'http://localhost:1337')).toBe(false);
  });

  it('campaign spec §5: only objects of our channel are bridge frames (null, functions and other channels are refused as such)', () => {
    const notBridge = { ok: false, reason: 'not-bridge', detail: 'Not a campaign bridge frame' };
    const disguised = Object.assign(() => undefined, { channel: BRIDGE_CHANNEL, type: 'ready' });
    for (const data of [null, undefined, 'ready', 42, disguised, { type: 'ready' }, { channel: 'other-channel', type: 'ready' }]) {
      expect(parsePageToEditorMessage(data)).toEqual(notBridge);
      expect(parseEditorToPageMessage(data)).toEqual(notBridge);
    }
  });

  it('campaign spec §7: each page frame parses to itself and needs our channel inside the schema too', () => {
    const frames = [
      { channel: BRIDGE_CHANNEL, type: 'ready' },
      { channel: BRIDGE_CHANNEL, type: 'ready:v2', requestId: 'r1', version: 2 },
      { channel: BRIDGE_CHANNEL, type: 'campaignUrl', url: 'https://cms.fanfare.example/c/fan-pages/demo' },
      { channel: BRIDGE_CHANNEL, type: 'openMediaLibrary:v2', requestId: 'r2', fieldId: 'hero.cover_image', currentFileUrl: 'http://cdn.fanfare.example/a.png', targetWidth: null, targetHeight: null },
    ];
    for (const frame of frames) expect(parsePageToEditorMessage(frame)).toEqual({ ok: true, message: frame });
    expect(parsePageToEditorMessage({ channel: BRIDGE_CHANNEL, type: 'ready:v2', requestId: 'r1', version: 1 }).ok).toBe(false);
    expect(parsePageToEditorMessage({ channel: BRIDGE_CHANNEL, type: 'openMediaLibrary:v2', requestId: 'r2', fieldId: 'f'.repeat(201), currentFileUrl: null, targetWidth: null, targetHeight: null }).ok).toBe(false);
  });

  it('campaign spec §7: bridge URLs are absolute http(s) addresses without spaces, at most 2000 characters', () => {
    const url = (u: string) => parsePageToEditorMessage({ channel: BRIDGE_CHANNEL, type: 'campaignUrl', url: u });
    for (const ok of ['http://127.0.0.1:1337/c/a/b', 'HTTPS://CMS.EXAMPLE/C', `https://cms.example/${'a'.repeat(1900)}`]) expect(url(ok).ok, ok).toBe(true);
    for (const bad of ['ftp://cms.example/x', 'xhttps://cms.example', 'https://cms.example/a b', 'https://', `https://cms.example/${'a'.repeat(2000)}`]) expect(url(bad).ok, bad).toBe(false);
    expect(url('ftp://cms.example/x')).toMatchObject({ ok: false, reason: 'invalid', detail: expect.stringContaining('Expected an absolute http(s) URL') });
  });

  it('campaign spec §7: editor frames parse to themselves; a campaign without workflow fields is a draft of version 0', () => {
    const info = parseEditorToPageMessage({ channel: BRIDGE_CHANNEL, type: 'campaignInfo:v2', replyTo: 'r1', campaign });
    expect(info).toMatchObject({ ok: true, message: { type: 'campaignInfo:v2', replyTo: 'r1', campaign: { id: 'c1', status: 'draft', version: 0, published_version: null } } });
    const saved = parseEditorToPageMessage({ channel: BRIDGE_CHANNEL, type: 'campaignSaved', campaign });
    expect(saved).toMatchObject({ ok: true, message: { type: 'campaignSaved', campaign: { id: 'c1', status: 'draft' } } });
    const picked = { channel: BRIDGE_CHANNEL, type: 'mediaPicked', replyTo: 'r2', fieldId: 'hero.cover_image', url: 'https://cdn.fanfare.example/b.png' };
    expect(parseEditorToPageMessage(picked)).toEqual({ ok: true, message: picked });
    expect(parseEditorToPageMessage({ ...picked, url: 'data:image/png;base64,AAAA' }).ok).toBe(false);
    expect(parseEditorToPageMessage({ ...picked, extra: true }).ok).toBe(false);
  });

  it('campaign spec §7: the simulation checks its country, token gate and colours strictly', () => {
    const simulate = (simulation: unknown) => parseEditorToPageMessage({ channel: BRIDGE_CHANNEL, type: 'campaignInfo:v2', campaign, simulation }).ok;
    expect(simulate({ country: 'DE', token_gate: 'granted' })).toBe(true);
    expect(simulate({ token_gate: 'blocked' })).toBe(true);
    for (const bad of [{ country: 'de' }, { country: 'XDE' }, { country: 'DEX' }, { token_gate: 'maybe' }, { token_gate: '' }]) expect(simulate(bad), JSON.stringify(bad)).toBe(false);
    const theme = (primary_color: string) => parseEditorToPageMessage({ channel: BRIDGE_CHANNEL, type: 'theme', theme: { primary_color } }).ok;
    expect(theme('#A1b2C3')).toBe(true);
    for (const bad of ['#a1b2c3d', 'x#a1b2c3', '#a1b2c', 'a1b2c3']) expect(theme(bad), bad).toBe(false);
    const scheme = (color_scheme: string) => parseEditorToPageMessage({ channel: BRIDGE_CHANNEL, type: 'theme', theme: { color_scheme } }).ok;
    expect(scheme('light')).toBe(true);
    expect(scheme('dark')).toBe(true);
    expect(scheme('sepia')).toBe(false);
  });
});
