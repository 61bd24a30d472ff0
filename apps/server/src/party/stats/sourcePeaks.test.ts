/**
 * Listeners by effective source are stored while the party runs, so the recap shows them after the
 * fans' connections are gone: each node samples its counts, a minute's row keeps the highest per
 * source, and the recap adds the nodes up per minute. On SQLite and (with TEST_DATABASE_URL)
 * PostgreSQL.
 */
import { PartyRecapResponse } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS } from '../../test/harness.ts';
import { startLiveWorld, TestSocket, waitFor, type LiveWorld } from '../../test/liveParty.ts';
import { recapSources, recordSourceSample } from './sourcePeaks.ts';

const PARTY = 'source-peaks';
const MINUTE = 60_000;

describe.each(DB_TARGETS)('listeners by source stored for the recap, on %s', (db) => {
  let w: LiveWorld;
  beforeAll(async () => {
    // Sampled every 50 ms here (30 s by default).
    w = await startLiveWorld(db, PARTY, { SOURCE_SAMPLE_SECONDS: '0.05' });
    await w.cms.call('startParty', { params: { id: PARTY } });
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  const recap = async () => PartyRecapResponse.parse(await w.cms.call('getPartyRecap', { params: { id: PARTY } }));

  it('the recap keeps the peak per source after the fans have left and the party has ended', async () => {
    const fan = TestSocket.open(w.t, PARTY, w.fan.token);
    const lena = TestSocket.open(w.t, PARTY, w.lena.token);
    const admin = TestSocket.open(w.t, PARTY, w.admin.token);
    await Promise.all([fan, lena, admin].map((s) => s.next('hello')));
    fan.send({ type: 'source', source: 'provider', reason: 'provider_ok' });
    lena.send({ type: 'source', source: 'preview', reason: 'free_tier' });
    admin.send({ type: 'source', source: 'label_stream', reason: 'no_sdk' });
    await waitFor('the sources stored', async () => {
      const r = await recap();
      return r.sources.peak.preview === 1 && r.sources.peak.provider === 1 && r.sources.peak.label_stream === 1 && r;
    });
    for (const s of [fan, lena, admin]) s.close();
    await w.host.client.call('endParty', { params: { id: PARTY } });

    const after = await recap();
    expect(after.sources.peak).toMatchObject({ provider: 1, label_stream: 1, preview: 1, none: 0 });
    expect(after.sources.busiest?.listeners).toBeGreaterThanOrEqual(3);
    expect(after.sources.sampled_minutes).toBeGreaterThanOrEqual(1);
  });

  it('a minute keeps each node’s highest count per source, and the nodes of a minute add up', async () => {
    const store = w.t.server.ctx.db;
    const party = 'source-peaks-nodes';
    await w.cms.call('putParty', { params: { id: party }, body: { name: 'Nodes', starts_at: new Date(Date.now() + 3600_000).toISOString() } });
    const zero = { provider: 0, label_stream: 0, preview: 0, none: 0, unknown: 0 };
    const t0 = 1_800_000_000_000 - (1_800_000_000_000 % MINUTE);
    await recordSourceSample(store, party, 'node-a', t0 + 1_000, { ...zero, label_stream: 5, preview: 2 });
    await recordSourceSample(store, party, 'node-a', t0 + 31_000, { ...zero, label_stream: 3, preview: 4 });
    await recordSourceSample(store, party, 'node-b', t0 + 2_000, { ...zero, label_stream: 1, provider: 7 });
    await recordSourceSample(store, party, 'node-a', t0 + MINUTE + 1_000, { ...zero, label_stream: 2 });
    const sources = await recapSources(store, party);
    expect(sources.peak).toEqual({ ...zero, provider: 7, label_stream: 6, preview: 4 });
    expect(sources.busiest).toEqual({ minute: new Date(t0).toISOString(), listeners: 17, counts: { ...zero, provider: 7, label_stream: 6, preview: 4 } });
    expect(sources.sampled_minutes).toBe(2);
  });

  it('a party with no sample has zero peaks and no busiest minute', async () => {
    const sources = await recapSources(w.t.server.ctx.db, 'no-such-samples');
    expect(sources).toEqual({ peak: { provider: 0, label_stream: 0, preview: 0, none: 0, unknown: 0 }, busiest: null, sampled_minutes: 0 });
  });
});
