/**
 * Each fan's effective source (what they hear, and why), reported over the party socket with a
 * `source` frame, and the dashboard's listeners by source, on SQLite and (with TEST_DATABASE_URL)
 * PostgreSQL.
 */
import { type PartyStatsEvent } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CMS_TOKEN, DB_TARGETS } from '../../test/harness.ts';
import { startLiveWorld, TestSocket, waitFor, type LiveWorld } from '../../test/liveParty.ts';

const PARTY = 'sources';

function dashboard(w: LiveWorld): TestSocket {
  const base = w.t.partyUrl.replace(/^http/, 'ws');
  return new TestSocket(`${base}/api/parties/${PARTY}?access_token=${encodeURIComponent(TEST_CMS_TOKEN)}&view=dashboard`);
}

const latest = (s: TestSocket): PartyStatsEvent | undefined => s.events.filter((e): e is PartyStatsEvent => e.type === 'party_stats').at(-1);

describe.each(DB_TARGETS)('effective sources on the dashboard, on %s', (db) => {
  let w: LiveWorld;
  beforeAll(async () => {
    w = await startLiveWorld(db, PARTY);
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  it('counts listeners by the source each fan reported, how many are on previews, and unknown until one reports', async () => {
    const dash = dashboard(w);
    await dash.next('party_stats');
    const fan = TestSocket.open(w.t, PARTY, w.fan.token);
    const lena = TestSocket.open(w.t, PARTY, w.lena.token);
    const admin = TestSocket.open(w.t, PARTY, w.admin.token);
    await Promise.all([fan, lena, admin].map((s) => s.next('hello')));
    await waitFor('three unknown sources', () => latest(dash)?.sources.unknown === 3 && latest(dash));

    fan.send({ type: 'source', source: 'provider', reason: 'provider_ok' });
    lena.send({ type: 'source', source: 'preview', reason: 'free_tier' });
    admin.send({ type: 'source', source: 'label_stream', reason: 'no_sdk' });
    await waitFor('sources counted', () => latest(dash)?.sources.preview === 1 && latest(dash)?.sources.unknown === 0 && latest(dash));
    expect(latest(dash)!.sources).toEqual({ provider: 1, label_stream: 1, preview: 1, none: 0, unknown: 0 });
    expect(latest(dash)!.listeners).toBe(3);

    // A fan whose party allows the label stream again moves off previews.
    lena.send({ type: 'source', source: 'label_stream', reason: 'free_tier' });
    await waitFor('lena on the label stream', () => latest(dash)?.sources.label_stream === 2 && latest(dash));
    expect(latest(dash)!.sources.preview).toBe(0);

    // A fan who leaves is no longer counted under any source.
    admin.close();
    await waitFor('admin gone', () => latest(dash)?.listeners === 2 && latest(dash));
    expect(latest(dash)!.sources).toEqual({ provider: 1, label_stream: 1, preview: 0, none: 0, unknown: 0 });
    fan.close();
    lena.close();
    dash.close();
  });

  it('a fan with two tabs counts once, with the source of the newest report', async () => {
    const dash = dashboard(w);
    await dash.next('party_stats');
    const tabA = TestSocket.open(w.t, PARTY, w.fan.token);
    const tabB = TestSocket.open(w.t, PARTY, w.fan.token);
    await Promise.all([tabA, tabB].map((s) => s.next('hello')));
    tabA.send({ type: 'source', source: 'provider', reason: 'provider_ok' });
    await waitFor('provider counted', () => latest(dash)?.sources.provider === 1 && latest(dash));
    tabB.send({ type: 'source', source: 'preview', reason: 'no_eme' });
    await waitFor('newest report wins', () => latest(dash)?.sources.preview === 1 && latest(dash));
    expect(latest(dash)!.sources.provider).toBe(0);
    expect(latest(dash)!.listeners).toBe(1);
    tabA.close();
    tabB.close();
    dash.close();
  });

  it('an invalid source frame is answered with a named error and changes nothing', async () => {
    const s = TestSocket.open(w.t, PARTY, w.fan.token);
    await s.next('hello');
    s.send({ type: 'source', source: 'pirate_radio', reason: 'provider_ok' });
    const err = await s.next('error');
    expect(err.code).toBe('invalid_frame');
    s.send({ type: 'source', source: 'provider', reason: 'provider_ok', extra: 1 });
    expect((await s.next('error', (e) => e !== err)).code).toBe('invalid_frame');
    s.close();
  });
});
