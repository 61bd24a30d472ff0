/**
 * Test helpers of the live domain: a party with tracks and a cast of fans (listener, host, admin),
 * a real WebSocket client that records frames, and bounded waiting.
 */
import { PartyClient } from '@fanfare/client';
import { ServerFrame, type SequencedEvent, type ServerEvent } from '@fanfare/protocol';
import { WebSocket, type ClientOptions } from 'ws';
import { DEMO_FANS } from '../providers/emulators/demoFans.ts';
import { TEST_CMS_TOKEN, startTestServer, type DbTarget, type TestServer } from './harness.ts';
import { loginWithSpotify } from './logins.ts';
import type { ServerContext } from '../context.ts';
import type { Audience, SequencedEventInput } from '../realtime/hub.ts';
import { runPartyWrite } from '../realtime/unitOfWork.ts';

/** Publishes `event` through the server's one publish path, as a write with no statement of its own. */
export async function publishEvent(ctx: ServerContext, partyId: string, event: SequencedEventInput, audience?: Audience): Promise<SequencedEvent> {
  const queued = await runPartyWrite(ctx, async (w) => w.emit(partyId, event, audience), { singleStatement: true });
  return queued.event;
}

/** Waits until `check` returns a value (not undefined/false), polling; throws after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; i < 100_000; i++) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** A party socket as a browser would open it, recording every frame. */
export class TestSocket {
  readonly ws: WebSocket;
  readonly events: ServerEvent[] = [];
  readonly texts: string[] = [];
  /** Raw JSON frames (arrays), in arrival order. */
  readonly frames: ServerEvent[][] = [];
  closed: { code: number; reason: string } | null = null;
  opened = false;

  /** Answers the server's `ping` text like the app does (off: a dead client). */
  constructor(url: string, readonly autoPong = true, options?: ClientOptions) {
    this.ws = new WebSocket(url, options);
    this.ws.on('open', () => {
      this.opened = true;
    });
    this.ws.on('message', (data, isBinary) => {
      const text = data.toString();
      if (isBinary || !text.startsWith('[')) {
        this.texts.push(text);
        if (text === 'ping' && this.autoPong && this.ws.readyState === this.ws.OPEN) this.ws.send('pong');
        return;
      }
      const frame = ServerFrame.parse(JSON.parse(text));
      this.frames.push(frame);
      this.events.push(...frame);
    });
    this.ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
    this.ws.on('error', () => undefined);
  }

  static open(t: TestServer, partyId: string, token: string | null, autoPong = true): TestSocket {
    const base = t.partyUrl.replace(/^http/, 'ws');
    const q = token === null ? '' : `?access_token=${encodeURIComponent(token)}`;
    return new TestSocket(`${base}/api/parties/${encodeURIComponent(partyId)}${q}`, autoPong);
  }

  /** Opens and waits for `hello`. */
  static async connect(t: TestServer, partyId: string, token: string): Promise<TestSocket> {
    const s = TestSocket.open(t, partyId, token);
    await s.next('hello');
    return s;
  }

  /** Sends now, or as soon as the socket opens (as the app sends `resume` on open). */
  send(data: string | Buffer | object): void {
    const payload = typeof data === 'string' || Buffer.isBuffer(data) ? data : JSON.stringify(data);
    if (this.ws.readyState === this.ws.CONNECTING) this.ws.once('open', () => this.ws.send(payload));
    else this.ws.send(payload);
  }

  sequenced(): SequencedEvent[] {
    return this.events.filter((e): e is SequencedEvent => 'seq_id' in e && e.type !== 'hello' && e.type !== 'resync');
  }

  /** The highest seq_id of the sequenced events received (0 before any). */
  seenThrough(): number {
    return Math.max(0, ...this.sequenced().map((e) => e.seq_id));
  }

  /** The last seq_id a client would resume from: its last event, else `hello`'s. */
  lastSeq(): number {
    const seqs = this.sequenced().map((e) => e.seq_id);
    const hello = this.events.find((e) => e.type === 'hello');
    return Math.max(hello && 'seq_id' in hello ? hello.seq_id : 0, ...seqs);
  }

  /** The first event of `type` (after `from` events) that matches `pred`. */
  async next<K extends ServerEvent['type']>(
    type: K,
    pred: (e: Extract<ServerEvent, { type: K }>) => boolean = () => true,
    from = 0,
    timeoutMs = 10_000,
  ): Promise<Extract<ServerEvent, { type: K }>> {
    return waitFor(`${type} event`, () => {
      for (let i = from; i < this.events.length; i++) {
        const e = this.events[i]!;
        if (e.type === type && pred(e as Extract<ServerEvent, { type: K }>)) return e as Extract<ServerEvent, { type: K }>;
      }
      if (this.closed) throw new Error(`Socket closed (${this.closed.code} ${this.closed.reason}) while waiting for ${type}`);
      return undefined;
    }, timeoutMs);
  }

  async waitClosed(timeoutMs = 10_000): Promise<{ code: number; reason: string }> {
    return waitFor('socket close', () => this.closed ?? undefined, timeoutMs);
  }

  close(): void {
    if (!this.closed) this.ws.terminate();
  }
}

export interface LiveFan {
  id: string;
  token: string;
  client: PartyClient;
}

export interface LiveWorld {
  t: TestServer;
  cms: PartyClient;
  /** demo-fan: a listener. */
  fan: LiveFan;
  /** lena: a listener. */
  lena: LiveFan;
  /** host-hanna: granted host. */
  host: LiveFan;
  /** sam: granted admin. */
  admin: LiveFan;
  /** Moves the server clock forward (the timeline's test clock). */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

const spotifyIdOf = (hint: string) => DEMO_FANS.find((f) => f.hint === hint)!.spotifyId;

/** The first demo album's Spotify id (4 tracks). */
export const ALBUM_ID = '6iz0r2rAVeYBGcpxZOyXHX';

/**
 * Creates a party through the API, loads the demo album as its tracks, grants host and admin, and
 * signs four demo fans up.
 */
export async function setUpParty(t: TestServer, partyId: string, opts: { grants?: boolean } = {}): Promise<Omit<LiveWorld, 't' | 'close' | 'advanceClock'>> {
  const cms = new PartyClient({ baseUrl: t.partyUrl, cmsToken: TEST_CMS_TOKEN });
  await cms.call('putParty', { params: { id: partyId }, body: { name: `Party ${partyId}`, starts_at: new Date(Date.now() + 3600_000).toISOString() } });
  await cms.call('putTracks', { params: { id: partyId }, body: { type: 'album', id: ALBUM_ID, service: 'spotify', country: 'de' } });
  if (opts.grants !== false) {
    for (const [hint, role, name] of [
      ['host-hanna', 'host', 'Hanna Host'],
      ['sam', 'admin', 'Sam Admin'],
    ] as const) {
      await cms.call('postGrant', { params: { id: partyId }, body: { service: 'spotify', service_id: spotifyIdOf(hint), role, display_name: name } });
    }
  }
  const fanOf = async (hint: string, name: string): Promise<LiveFan> => {
    const token = (await loginWithSpotify(t.partyUrl, hint, { partyId })).accessToken;
    const client = new PartyClient({ baseUrl: t.partyUrl, accessToken: token });
    const { id } = await client.call('signup', { params: { id: partyId }, body: { real_name: name, display_name: name } });
    return { id, token, client };
  };
  const [fan, lena, host, admin] = await Promise.all([
    fanOf('demo-fan', 'Demo Fan'),
    fanOf('lena', 'Lena'),
    fanOf('host-hanna', 'Hanna'),
    fanOf('sam', 'Sam'),
  ]);
  return { cms, fan, lena, host, admin };
}

/** A server with fast timers for tests, and a party set up on it. */
export async function startLiveWorld(db: DbTarget, partyId: string, env: Record<string, string> = {}): Promise<LiveWorld> {
  const t = await startTestServer({ db, env: { TIMELINE_TICK_MS: '20', SOCKET_BATCH_MS: '10', ...env } });
  let offset = 0;
  t.server.ctx.now = () => Date.now() + offset;
  const cast = await setUpParty(t, partyId);
  return {
    t,
    ...cast,
    advanceClock(ms: number) {
      offset += ms;
    },
    close: () => closeTestServer(t),
  };
}

/** Closes a test server; the harness waits for PostgreSQL sessions to leave before dropping. */
export async function closeTestServer(t: TestServer): Promise<void> {
  await t.close();
}
