/**
 * Test helpers of the chat domain: a running server with demo fans logged in, signed up for the
 * demo party, and given their roles; a fan's real party socket. Used by the chat tests only.
 */
import { ApiError, PartyClient } from '@fanfare/client';
import { ServerFrame, type ServerEvent } from '@fanfare/protocol';
import { expect } from 'vitest';
import { WebSocket } from 'ws';
import { DEMO_FANS } from '../../providers/emulators/demoFans.ts';
import { TEST_CMS_TOKEN, startTestServer, type DbTarget, type TestServer } from '../../test/harness.ts';
import { loginWithApple, loginWithSpotify } from '../../test/logins.ts';

export const PARTY = 'demo';

/** A logged-in fan with a client carrying their bearer token. */
export interface TestFan {
  id: string;
  token: string;
  client: PartyClient;
}

export interface ChatWorld {
  t: TestServer;
  /** Spotify demo-fan (premium), signed up: a listener. */
  fan: TestFan;
  /** Spotify lena (free), signed up: a listener. */
  lena: TestFan;
  /** Spotify host-hanna, signed up, granted host. */
  host: TestFan;
  /** Spotify sam, signed up, granted admin. */
  admin: TestFan;
  /** Apple lena, logged in but NOT signed up for the party. */
  stranger: TestFan;
  /** A client with the CMS token and no bearer. */
  cms: PartyClient;
  /** A client without any credentials. */
  anon: PartyClient;
  /** Logs in another Apple demo fan and signs them up (fresh fans for rate-limited scenarios). */
  appleFan(hint: string, displayName: string): Promise<TestFan>;
  close(): Promise<void>;
}

const spotifyIdOf = (hint: string) => DEMO_FANS.find((f) => f.hint === hint)!.spotifyId;

/** Starts a server and prepares the demo party's cast (see ChatWorld). */
export async function startChatWorld(db: DbTarget): Promise<ChatWorld> {
  const t = await startTestServer({ db });
  const cms = new PartyClient({ baseUrl: t.partyUrl, cmsToken: TEST_CMS_TOKEN });
  const anon = new PartyClient({ baseUrl: t.partyUrl });

  const asFan = async (token: string, displayName: string | null): Promise<TestFan> => {
    const client = new PartyClient({ baseUrl: t.partyUrl, accessToken: token });
    if (displayName === null) {
      const me = await client.call('getSystemMe', {});
      return { id: me.id, token, client };
    }
    const { id } = await client.call('signup', { params: { id: PARTY }, body: { real_name: displayName, display_name: displayName } });
    return { id, token, client };
  };
  const spotify = async (hint: string, name: string) => asFan((await loginWithSpotify(t.partyUrl, hint)).accessToken, name);

  // The cast's roles come from the grants below alone (the demo seed makes Hanna its host).
  await t.server.ctx.db.deleteFrom('grants').where('party_id', '=', PARTY).execute();
  for (const [hint, role, name] of [
    ['host-hanna', 'host', 'Hanna Host'],
    ['sam', 'admin', 'Sam Admin'],
  ] as const) {
    await cms.call('postGrant', { params: { id: PARTY }, body: { service: 'spotify', service_id: spotifyIdOf(hint), role, display_name: name } });
  }
  const [fan, lena, host, admin] = await Promise.all([
    spotify('demo-fan', 'Demo Fan'),
    spotify('lena', 'Lena'),
    spotify('host-hanna', 'Hanna'),
    spotify('sam', 'Sam'),
  ]);
  const stranger = await asFan(await loginWithApple(t.partyUrl, 'lena'), null);
  return {
    t,
    fan,
    lena,
    host,
    admin,
    stranger,
    cms,
    anon,
    appleFan: async (hint, displayName) => asFan(await loginWithApple(t.partyUrl, hint), displayName),
    close: () => t.close(),
  };
}

/** Polls `probe` every 25 ms until it returns a value other than undefined/false; bounded in time. */
export async function waitUntil<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; i < 10_000; i++) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`Condition not met within ${timeoutMs} ms`);
}

/** Expects the call to fail with `status` and a `detail`; returns the error body. */
export async function expectStatus(p: Promise<unknown>, status: number): Promise<{ detail: unknown }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected HTTP ${status}`).toBeInstanceOf(ApiError);
  expect((err as ApiError).status).toBe(status);
  const body = (err as ApiError).body as { detail: unknown };
  expect(body.detail).toBeDefined();
  return body;
}

/**
 * A fan's real party socket (`/api/parties/{id}?access_token=`): answers the ping text, records
 * every event of the JSON arrays it receives (each frame validated against the protocol).
 */
export class PartySocket {
  readonly events: ServerEvent[] = [];
  closeCode: number | null = null;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      if (text === 'ping') return ws.send('pong');
      if (text === 'pong') return;
      this.events.push(...ServerFrame.parse(JSON.parse(text)));
    });
    ws.on('close', (code) => {
      this.closeCode = code;
    });
  }

  /** Connects as the fan and waits for the `hello` event. */
  static async open(t: TestServer, token: string, partyId = PARTY): Promise<PartySocket> {
    const ws = new WebSocket(`${t.partyUrl.replace(/^http/, 'ws')}/api/parties/${encodeURIComponent(partyId)}?access_token=${encodeURIComponent(token)}`);
    const socket = new PartySocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    await socket.waitFor((e) => e.type === 'hello');
    return socket;
  }

  /** Waits (bounded) for an event matching `match` and returns it. */
  async waitFor<T extends ServerEvent = ServerEvent>(match: (e: ServerEvent) => boolean, timeoutMs = 10_000): Promise<T> {
    return (await waitUntil(() => this.events.find(match), timeoutMs)) as T;
  }

  /** Events of one type received so far. */
  of<T extends ServerEvent['type']>(type: T): Extract<ServerEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<ServerEvent, { type: T }> => e.type === type);
  }

  /** The chat message events (any message type) with this id, received so far. */
  message(id: string): ServerEvent | undefined {
    return this.events.find((e) => 'id' in e && e.id === id);
  }

  close(): void {
    this.ws.close();
  }
}
