/** A per-fan cap on open sockets (a handful, MAX_SOCKETS_PER_FAN), not hundreds. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CloseCode } from '@fanfare/protocol';
import { PartyClient } from '@fanfare/client';
import { DB_TARGETS, startTestServer, type TestServer } from '../test/harness.ts';
import { loginWithSpotify } from '../test/logins.ts';

const PARTY = 'demo';

describe.each(DB_TARGETS)('socket cap per fan on %s', (db) => {
  let t: TestServer;
  const fanToken = async (hint: string) => {
    const token = (await loginWithSpotify(t.partyUrl, hint)).accessToken;
    await new PartyClient({ baseUrl: t.partyUrl, accessToken: token }).call('signup', { params: { id: PARTY }, body: { real_name: hint, display_name: hint } });
    return token;
  };
  beforeAll(async () => {
    t = await startTestServer({ db });
  });
  afterAll(async () => t?.close());

  /** Opens a raw socket and resolves with its close code, or 'open' once hello arrived. */
  const attempt = (token: string) =>
    new Promise<number | 'open'>((resolve) => {
      const ws = new WebSocket(`${t.partyUrl.replace(/^http/, 'ws')}/api/parties/${PARTY}?access_token=${encodeURIComponent(token)}`);
      ws.on('message', (data) => {
        if (data.toString().includes('"hello"')) resolve('open');
      });
      ws.on('close', (code) => resolve(code));
      ws.on('error', () => undefined);
      opened.push(ws);
    });
  const opened: WebSocket[] = [];
  afterAll(() => opened.forEach((ws) => ws.terminate()));

  it('a fan holds at most MAX_SOCKETS_PER_FAN (5) sockets; parallel extra connects are closed 1008; others are unaffected', async () => {
    const cap = t.server.ctx.config.abuse.maxSocketsPerFan;
    expect(cap).toBe(5);
    const [mine, theirs] = [await fanToken('cap-fan'), await fanToken('cap-other')];
    const results = await Promise.all(Array.from({ length: cap + 5 }, () => attempt(mine)));
    expect(results.filter((r) => r === 'open')).toHaveLength(cap);
    expect(results.filter((r) => r === CloseCode.POLICY_VIOLATION)).toHaveLength(5);
    // Another fan still connects.
    expect(await attempt(theirs)).toBe('open');
    // Closing one of the fan's sockets makes room for a new one.
    opened.find((ws) => ws.readyState === ws.OPEN)!.close();
    await new Promise((r) => setTimeout(r, 200));
    expect(await attempt(mine)).toBe('open');
  });
});
