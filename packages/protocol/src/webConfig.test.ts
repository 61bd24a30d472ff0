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
});
