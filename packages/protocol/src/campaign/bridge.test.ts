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
});
