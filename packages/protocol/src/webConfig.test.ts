import { describe, expect, it } from 'vitest';
import { parseWebConfig } from './webConfig.ts';

describe('WebConfig (the public URLs a served page carries)', () => {
  it('reads both base URLs, a path prefix included', () => {
    expect(parseWebConfig('{"partyUrl":"https://party.label.example","cmsUrl":"https://label.example/cms"}')).toEqual({
      ok: true,
      config: { partyUrl: 'https://party.label.example', cmsUrl: 'https://label.example/cms' },
    });
  });

  it('never throws: a missing meta, bad JSON or a bad URL is a named refusal', () => {
    expect(parseWebConfig(null)).toMatchObject({ ok: false, detail: expect.stringMatching(/no <meta name="fanfare-config">/) });
    expect(parseWebConfig('{')).toMatchObject({ ok: false, detail: expect.stringMatching(/not JSON/) });
    for (const partyUrl of ['party.label.example', 'javascript:alert(1)', 'https://party.label.example/', 'https://party.label.example?x=1', 'https://u:p@party.label.example']) {
      expect(parseWebConfig(JSON.stringify({ partyUrl, cmsUrl: 'https://cms.label.example' }))).toMatchObject({ ok: false, detail: expect.stringMatching(/^partyUrl: /) });
    }
  });

  it('only http and https base URLs: another scheme with a clean origin is refused too', () => {
    const cmsUrl = 'https://cms.label.example';
    expect(parseWebConfig(JSON.stringify({ partyUrl: 'http://127.0.0.1:8080', cmsUrl }))).toEqual({ ok: true, config: { partyUrl: 'http://127.0.0.1:8080', cmsUrl } });
    for (const partyUrl of ['ftp://files.label.example', 'ws://party.label.example', 'file:///srv/party']) {
      expect(parseWebConfig(JSON.stringify({ partyUrl, cmsUrl }))).toEqual({ ok: false, detail: 'partyUrl: Expected an http(s) base URL without a trailing slash, query or fragment' });
    }
  });

  it('every refused field is named in the detail, in order', () => {
    expect(parseWebConfig(JSON.stringify({ partyUrl: 'nope', cmsUrl: 'https://cms.label.example/' }))).toEqual({
      ok: false,
      detail: 'partyUrl: Expected an http(s) base URL without a trailing slash, query or fragment; cmsUrl: Expected an http(s) base URL without a trailing slash, query or fragment',
    });
  });
});
