import { CAMPAIGN_META } from '@fanfare/protocol';
import { describe, expect, it } from 'vitest';
import { configuredBackendOrigin, defaultBackendOrigins, parseEnvironment, readCampaignConfig } from './config.ts';
import { campaignFixture, fakeEnv, pageMeta } from './test/fakes.ts';

describe('config', () => {
  it("campaign spec §5/§8: missing page metadata throws 'CMS Campaign ID is not loaded, check meta tags'", () => {
    const { env } = fakeEnv();
    expect(() => readCampaignConfig(env)).toThrow('CMS Campaign ID is not loaded, check meta tags');
    const c = campaignFixture();
    const broken = fakeEnv({ meta: { ...pageMeta(c), [CAMPAIGN_META.campaign]: '{not json' } });
    expect(() => readCampaignConfig(broken.env)).toThrow('CMS Campaign ID is not loaded, check meta tags');
    const mismatch = fakeEnv({ meta: { ...pageMeta(c), [CAMPAIGN_META.campaignId]: 'other' } });
    expect(() => readCampaignConfig(mismatch.env)).toThrow('CMS Campaign ID is not loaded, check meta tags');
  });

  it("campaign spec §5: environment is staging, production (also live, prod) or local, else 'Invalid environment'", () => {
    expect(parseEnvironment('staging')).toBe('staging');
    expect(parseEnvironment('production')).toBe('production');
    expect(parseEnvironment('live')).toBe('production');
    expect(parseEnvironment('prod')).toBe('production');
    expect(parseEnvironment('local')).toBe('local');
    expect(() => parseEnvironment('dev')).toThrow('Invalid environment');
    expect(() => parseEnvironment(null)).toThrow('Invalid environment');
    const { env } = fakeEnv({ meta: pageMeta(campaignFixture(), 'qa') });
    expect(() => readCampaignConfig(env)).toThrow('Invalid environment');
  });

  it('campaign spec §2: reads the campaign JSON and the environment from the page metadata', () => {
    const c = campaignFixture({ name: 'Tour' });
    const { env } = fakeEnv({ meta: pageMeta(c, 'live') });
    const config = readCampaignConfig(env);
    expect(config.campaign.name).toBe('Tour');
    expect(config.environment).toBe('production');
    expect(config.isEmbedded).toBe(false);
  });

  it("campaign spec §7: backend origin is the environment default (local: port 1337) outside the editor", () => {
    const c = campaignFixture();
    expect(readCampaignConfig(fakeEnv({ meta: pageMeta(c, 'local'), href: 'http://localhost:5173/x' }).env).backendOrigin).toBe('http://localhost:1337');
    expect(readCampaignConfig(fakeEnv({ meta: pageMeta(c, 'production') }).env).backendOrigin).toBe('https://cms.fanfare.example');
    expect(readCampaignConfig(fakeEnv({ meta: pageMeta(c, 'staging') }).env, { staging: 'https://staging.example' }).backendOrigin).toBe('https://staging.example');
    expect(defaultBackendOrigins('http://localhost:5173/').local).toBe('http://localhost:1337');
  });

  it('campaign spec §7: inside the editor the backend origin is the parent origin (only an allowed one)', () => {
    const c = campaignFixture();
    const inEditor = fakeEnv({ meta: pageMeta(c, 'staging'), parentOrigin: 'https://staging.example' });
    expect(readCampaignConfig(inEditor.env, { staging: 'https://staging.example' }).backendOrigin).toBe('https://staging.example');
    expect(readCampaignConfig(inEditor.env, { staging: 'https://staging.example' }).isEmbedded).toBe(true);
    // A parent that differs from the environment's default decides: the staging backend editing a production page.
    const stagingEditor = fakeEnv({ meta: pageMeta(c, 'production'), parentOrigin: 'https://staging.example' });
    expect(readCampaignConfig(stagingEditor.env, { staging: 'https://staging.example' }).backendOrigin).toBe('https://staging.example');
    const foreign = fakeEnv({ meta: pageMeta(c, 'production'), parentOrigin: 'https://evil.example' });
    expect(readCampaignConfig(foreign.env).backendOrigin).toBe('https://cms.fanfare.example');
  });

  it('campaign spec §5/§8: page metadata of the wrong shape is refused field by field, with the same message', () => {
    const good = campaignFixture();
    const withJson = (json: unknown) => fakeEnv({ meta: { ...pageMeta(good), [CAMPAIGN_META.campaign]: JSON.stringify(json) } }).env;
    expect(readCampaignConfig(withJson(good)).campaign.id).toBe('c1');
    expect(readCampaignConfig(withJson({ ...good, starts_at: '2026-01-01T00:00:00.000Z', ends_at: '2026-02-01T00:00:00.000Z' })).campaign.starts_at).toBe('2026-01-01T00:00:00.000Z');
    const broken: unknown[] = [
      null,
      'c1',
      [good],
      { ...good, id: 1 },
      { ...good, app: null },
      { ...good, newsletters: {} },
      { ...good, enabled_services: 'spotify' },
      { ...good, token_gate: null },
      { ...good, token_gate: 'on' },
      { ...good, token_gate: { enabled: 'yes', product_id: null } },
      { ...good, starts_at: 5 },
      { ...good, ends_at: false },
    ];
    for (const json of broken) expect(() => readCampaignConfig(withJson(json)), JSON.stringify(json)).toThrow('CMS Campaign ID is not loaded, check meta tags');
    // The id alone, or the JSON alone, is not enough either.
    const noJson = fakeEnv({ meta: { [CAMPAIGN_META.campaignId]: 'c1', [CAMPAIGN_META.environment]: 'production' } }).env;
    expect(() => readCampaignConfig(noJson)).toThrow('CMS Campaign ID is not loaded, check meta tags');
    const noId = fakeEnv({ meta: { [CAMPAIGN_META.campaign]: JSON.stringify(good), [CAMPAIGN_META.environment]: 'production' } }).env;
    expect(() => readCampaignConfig(noId)).toThrow('CMS Campaign ID is not loaded, check meta tags');
    // The environment is read trimmed and in any case.
    expect(parseEnvironment('  LIVE ')).toBe('production');
  });

  it('campaign spec §7: the local backend is port 1337 of localhost, over https when the page is', () => {
    expect(defaultBackendOrigins('https://pages.label.example/c/a/b').local).toBe('https://localhost:1337');
    expect(defaultBackendOrigins('http://pages.label.example/c/a/b').local).toBe('http://localhost:1337');
  });

  it('campaign spec §7: a backend origin the server wrote into the page decides, for its own environment only', () => {
    const c = campaignFixture();
    const served = (environment: string, origin: string, href = 'http://localhost:8080/c/fan-pages/demo') =>
      readCampaignConfig(fakeEnv({ href, meta: { ...pageMeta(c, environment), [CAMPAIGN_META.backendOrigin]: origin } }).env);
    // The demo: the CMS on another port than 1337 names itself, and the page calls it.
    expect(served('local', 'http://localhost:8080').backendOrigin).toBe('http://localhost:8080');
    // An address is reduced to its origin; surrounding blanks do not matter.
    expect(served('production', ' https://cms.label.example/some/path?x=1 ', 'https://pages.label.example/c/a/b').backendOrigin).toBe('https://cms.label.example');
    expect(served('staging', 'https://staging-cms.label.example').backendOrigin).toBe('https://staging-cms.label.example');
    // The configured backend is one the editor bridge accepts.
    expect(served('local', 'http://localhost:8080').allowedOrigins).toContain('http://localhost:8080');
    // The caller's own configuration comes before the page's.
    const env = fakeEnv({ meta: { ...pageMeta(c, 'local'), [CAMPAIGN_META.backendOrigin]: 'http://localhost:8080' } }).env;
    expect(readCampaignConfig(env, { local: 'http://127.0.0.1:9000' }).backendOrigin).toBe('http://127.0.0.1:9000');
  });

  it('campaign spec §7: with no usable configured backend the local page calls port 1337, never its own origin', () => {
    const c = campaignFixture();
    const href = 'http://localhost:8080/c/fan-pages/demo';
    const local = (meta: Record<string, string>) => readCampaignConfig(fakeEnv({ href, meta: { ...pageMeta(c, 'local'), ...meta } }).env).backendOrigin;
    expect(local({})).toBe('http://localhost:1337');
    for (const bad of ['', 'not a url', 'javascript:alert(1)', 'ftp://files.example', 'file:///etc/passwd']) expect(local({ [CAMPAIGN_META.backendOrigin]: bad }), bad).toBe('http://localhost:1337');
  });

  it('campaign spec §7: the configured backend origin is read as an http(s) origin or not at all', () => {
    expect(configuredBackendOrigin(null)).toBeNull();
    expect(configuredBackendOrigin('')).toBeNull();
    expect(configuredBackendOrigin('://')).toBeNull();
    expect(configuredBackendOrigin('data:text/plain,x')).toBeNull();
    expect(configuredBackendOrigin('http://localhost:1337/')).toBe('http://localhost:1337');
    expect(configuredBackendOrigin('HTTPS://CMS.Example:443/x')).toBe('https://cms.example');
  });

  it('campaign spec §5: only an embedded page with a known, allowed parent origin sends its calls to that parent', () => {
    const c = campaignFixture();
    const notEmbeddedButOrigin = fakeEnv({ href: 'https://cms.fanfare.example/c/fan-pages/demo', meta: pageMeta(c), parentOrigin: null });
    expect(readCampaignConfig(notEmbeddedButOrigin.env).backendOrigin).toBe('https://cms.fanfare.example');
    // An allowed origin reported without a window to talk to (no frame, no opener) is no editor.
    const originWithoutWindow = fakeEnv({ meta: pageMeta(c, 'production'), parentOrigin: 'https://staging.example' });
    originWithoutWindow.env.messaging.parent = null;
    const config = readCampaignConfig(originWithoutWindow.env, { staging: 'https://staging.example' });
    expect(config.isEmbedded).toBe(false);
    expect(config.backendOrigin).toBe('https://cms.fanfare.example');
  });
});
