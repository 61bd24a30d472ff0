import { CAMPAIGN_META } from '@fanfare/protocol';
import { describe, expect, it } from 'vitest';
import { defaultBackendOrigins, parseEnvironment, readCampaignConfig } from './config.ts';
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
});
