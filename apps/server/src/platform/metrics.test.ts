/**
 * The operator's Prometheus endpoint: closed unless METRICS_TOKEN is set, and during a party
 * (fans on sockets, chat, votes, a resume) its figures move. Scrapes are raw `fetch`: `/metrics`
 * is not an API route and answers Prometheus text, not JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@fanfare/protocol';
import { TestSocket, setUpParty, waitFor, type LiveFan } from '../test/liveParty.ts';
import { DB_TARGETS, startTestServer, type TestServer } from '../test/harness.ts';
import { sample } from '../test/prometheusText.ts';
import { Metrics } from './metrics.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const TOKEN = 'metrics-token-for-the-scraper-0123';
const PARTY = 'metrics-party';

async function scrape(url: string, token = TOKEN): Promise<string> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
}

describe('metrics endpoint closed by default', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('without METRICS_TOKEN, /metrics answers 404 on both listeners', async () => {
    for (const url of [t.partyUrl, t.cmsUrl]) {
      const res = await fetch(`${url}/metrics`);
      expect(res.status).toBe(404);
      ErrorBody.parse(await res.json());
    }
  });
});

for (const db of DB_TARGETS) {
  describe(`metrics during a party (${db})`, { timeout: 60_000 }, () => {
    let t: TestServer;
    let fans: LiveFan[];
    const sockets: TestSocket[] = [];

    beforeAll(async () => {
      t = await startTestServer({ db, env: { METRICS_TOKEN: TOKEN, SOCKET_BATCH_MS: '10', TIMELINE_TICK_MS: '20' } });
      const cast = await setUpParty(t, PARTY);
      fans = [cast.fan, cast.lena, cast.host];
    }, 60_000);

    afterAll(async () => {
      for (const s of sockets) s.close();
      await t?.close();
    });

    it('a scrape without the bearer token, or with a wrong one, is refused with 401 and a detail', async () => {
      for (const headers of [{}, { authorization: 'Bearer not-the-token-at-all-0000000' }, { authorization: TOKEN }] as Record<string, string>[]) {
        const res = await fetch(`${t.partyUrl}/metrics`, { headers });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
        ErrorBody.parse(await res.json());
      }
    });

    it('both listeners serve the figures with the token, and the Grafana dashboard reads only figures that exist', async () => {
      for (const url of [t.partyUrl, t.cmsUrl]) expect(await scrape(url)).toContain('fanfare_http_request_duration_seconds');
      const text = await scrape(t.partyUrl);
      const served = new Set([...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]));
      const dashboard = fs.readFileSync(path.join(ROOT, 'deploy/grafana/fanfare-dashboard.json'), 'utf8');
      const read = new Set([...dashboard.matchAll(/fanfare_[a-z0-9_]+/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, '')));
      expect([...read].filter((name) => !served.has(name))).toEqual([]);
    });

    it('fans join, chat and vote: sockets, frames, deliveries, event lag, request latency and queries move', async () => {
      const before = await scrape(t.partyUrl);
      for (const f of fans) sockets.push(await TestSocket.connect(t, PARTY, f.token));
      const open = await scrape(t.partyUrl);
      expect(sample(open, 'fanfare_sockets_open', { party: PARTY })).toBe(fans.length);

      for (const [i, f] of fans.entries()) await f.client.call('postChatMessage', { params: { id: PARTY }, body: { text: `hello ${i}` } });
      const tracks = (await fans[0]!.client.call('getTracks', { params: { id: PARTY } })).items;
      for (const f of fans) await f.client.call('voteTrack', { params: { id: PARTY, trackId: tracks.at(-1)!.id } });
      // Every socket has every chat message: the frames went out before the scrape below.
      for (const s of sockets) await waitFor('three messages on each socket', () => s.events.filter((e) => e.type === 'message').length >= fans.length || undefined);
      const after = await scrape(t.partyUrl);

      const moved = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels, 0);
      expect(moved('fanfare_socket_frames_total')).toBeGreaterThanOrEqual(fans.length * 2);
      expect(moved('fanfare_socket_deliveries_total')).toBeGreaterThanOrEqual(fans.length);
      expect(moved('fanfare_event_lag_seconds_count')).toBeGreaterThanOrEqual(1);
      expect(moved('fanfare_db_query_duration_seconds_count')).toBeGreaterThan(0);
      // Latency by route pattern, never by raw URL (party ids would become label values).
      expect(moved('fanfare_http_request_duration_seconds_count', { route: '/api/parties/:id/chat/messages', method: 'POST', status: '201' })).toBe(fans.length);
      expect(after).not.toContain(`route="/api/parties/${PARTY}/chat/messages"`);
      expect(sample(after, 'fanfare_sockets_shed_total')).toBe(0);
      if (db === 'postgres') expect(sample(after, 'fanfare_db_pool_connections')).toBeGreaterThan(0);
    });

    it('a fan who resumes counts as a resume; one whose events are gone counts as a resync', async () => {
      const before = await scrape(t.partyUrl);
      const last = sockets[0]!.lastSeq();
      const back = TestSocket.open(t, PARTY, fans[0]!.token);
      back.send({ type: 'resume', last_seq_id: last - 1 });
      sockets.push(back);
      await waitFor('the replayed event', () => back.sequenced().length > 0 || undefined);
      // Ahead of anything the party has sent: the server cannot replay it and answers resync.
      const lost = TestSocket.open(t, PARTY, fans[1]!.token);
      lost.send({ type: 'resume', last_seq_id: last + 1_000 });
      sockets.push(lost);
      await lost.next('resync');
      const after = await scrape(t.partyUrl);
      expect(sample(after, 'fanfare_socket_resumes_total') - sample(before, 'fanfare_socket_resumes_total')).toBe(1);
      expect(sample(after, 'fanfare_socket_resyncs_total') - sample(before, 'fanfare_socket_resyncs_total')).toBe(1);
    });

    it('a party whose sockets all close leaves no series behind', async () => {
      for (const s of sockets) s.close();
      await waitFor('the sockets to be gone', async () => !(await scrape(t.partyUrl)).includes(`party="${PARTY}"`) || undefined);
    });

    it('a stored upload is counted with its bytes', async () => {
      const before = await scrape(t.cmsUrl);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'me.png');
      await fans[0]!.client.call('uploadProfile', { params: { id: PARTY }, form });
      const after = await scrape(t.cmsUrl);
      expect(sample(after, 'fanfare_uploads_stored_total') - sample(before, 'fanfare_uploads_stored_total')).toBe(1);
      expect(sample(after, 'fanfare_uploads_stored_bytes_total') - sample(before, 'fanfare_uploads_stored_bytes_total')).toBe(PNG.length);
    });
  });
}

describe('mail metrics', () => {
  it('a sent mail counts as sent, a refused one as failed (and still throws)', async () => {
    const metrics = new Metrics('test-node');
    let refuse = false;
    const mailer = metrics.meterMailer({
      kind: 'smtp',
      send: async () => {
        if (refuse) throw new Error('550 mailbox unavailable');
      },
      outbox: async () => [],
      close: async () => undefined,
    });
    await mailer.send({ to: 'fan@label.example', subject: 'Hi', text: 'Hi' });
    refuse = true;
    await expect(mailer.send({ to: 'fan@label.example', subject: 'Hi', text: 'Hi' })).rejects.toThrow('550');
    const text = await metrics.registry.metrics();
    expect(sample(text, 'fanfare_mails_total', { outcome: 'sent' })).toBe(1);
    expect(sample(text, 'fanfare_mails_total', { outcome: 'failed' })).toBe(1);
  });
});

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
