import { describe, expect, it } from 'vitest';
import { CampaignSimulation } from '@fanfare/protocol';
import { REAL, toSimulation } from './SimulationPanel.tsx';

const campaign = { starts_at: '2027-06-01T18:00:00.000Z', ends_at: '2027-06-03T18:00:00.000Z' };

describe('preview simulation (SPEC-NOTES: travels with campaignInfo:v2, never reaches the server)', () => {
  it('"as it really is" sends an empty simulation', () => {
    expect(toSimulation(REAL, campaign)).toEqual({});
  });

  it('before start, live and ended pick a moment the page times as such (spec 4 campaign timing)', () => {
    const before = Date.parse(toSimulation({ ...REAL, moment: 'before' }, campaign).now!);
    const live = Date.parse(toSimulation({ ...REAL, moment: 'live' }, campaign).now!);
    const ended = Date.parse(toSimulation({ ...REAL, moment: 'ended' }, campaign).now!);
    expect(before).toBeLessThan(Date.parse(campaign.starts_at));
    expect(live).toBeGreaterThanOrEqual(Date.parse(campaign.starts_at));
    expect(live).toBeLessThan(Date.parse(campaign.ends_at));
    expect(ended).toBeGreaterThan(Date.parse(campaign.ends_at));
  });

  it('a campaign without times still gets a moment on the right side of "now"', () => {
    const now = Date.parse('2027-01-01T00:00:00.000Z');
    expect(Date.parse(toSimulation({ ...REAL, moment: 'ended' }, { starts_at: null, ends_at: null }, now).now!)).toBeGreaterThan(now);
    expect(Date.parse(toSimulation({ ...REAL, moment: 'before' }, { starts_at: null, ends_at: null }, now).now!)).toBeGreaterThan(now);
  });

  it('gate closed, logged out, locale and country map onto the bridge schema, which accepts them', () => {
    const sim = toSimulation({ moment: 'ended', gate: 'blocked', login: 'out', locale: 'en', country: 'AT' }, campaign);
    expect(sim).toMatchObject({ token_gate: 'blocked', login: null, locale: 'en', country: 'AT' });
    expect(CampaignSimulation.safeParse(sim).success).toBe(true);
    expect(toSimulation({ ...REAL, login: 'spotify', gate: 'granted' }, campaign)).toEqual({ login: 'spotify', token_gate: 'granted' });
  });
});
