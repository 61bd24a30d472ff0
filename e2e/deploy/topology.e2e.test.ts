/**
 * The reference deployment of `deploy/`, run on this machine: Debian's nginx with
 * `deploy/nginx/fanfare.conf.template` rendered as an operator renders it, terminating TLS with a
 * self-signed certificate on one free loopback port for two host names (party.test: the party app
 * and API; cms.test: the CMS, back office and campaign pages), in front of two server nodes in
 * production mode on one PostgreSQL database and one Redis. Through the proxy, over TLS: a fan's
 * journey (Spotify login through the emulator, signup, socket, chat, a vote) with nodes taking
 * turns, and the back office's party list, editor and live dashboard in Chromium.
 *
 * The host names resolve to 127.0.0.1 by Chromium's --host-resolver-rules and, for the test's own
 * HTTP and WebSocket clients, by a lookup of their own; the certificate is checked against itself
 * (it is the CA the clients trust). Skips, saying why, without TEST_DATABASE_URL, TEST_REDIS_URL
 * or nginx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import dns from 'node:dns';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import type { ClientOptions } from 'ws';
import { PartyClient } from '@fanfare/client';
import { LoginRedirectSuccess } from '@fanfare/protocol';
import { DEMO_PARTY_ID } from '../../apps/server/src/demo/seed.ts';
import { createPostgresDatabase, freePort, TEST_CMS_TOKEN } from '../../apps/server/src/test/harness.ts';
import { findNginx, selfSignedCertificate, startProxy, writeProxyConfig } from '../../apps/server/src/test/nginxProxy.ts';
import { sample } from '../../apps/server/src/test/prometheusText.ts';
import { TestSocket, waitFor } from '../../apps/server/src/test/liveParty.ts';
import { spotifyRedirectChain } from '../../apps/server/src/test/logins.ts';
import { buildPartyWeb, CHROMIUM_ARGS, CHROMIUM_PATH, ROOT } from '../party/browser.ts';
import { buildAdminWeb } from '../admin/browser.ts';

const PARTY_HOST = 'party.test';
const CMS_HOST = 'cms.test';
const ADMIN = { email: 'ops@label.example', password: 'a-long-enough-password' };
const METRICS_TOKEN = 'topology-metrics-token-0123456789';
const RENAMED = 'Tidal Lights behind the proxy';

const NGINX = findNginx();
const missing = [
  !process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL is not set',
  !process.env.TEST_REDIS_URL && 'TEST_REDIS_URL is not set',
  !NGINX && 'nginx is not installed (apt-get install -y nginx)',
].filter(Boolean);
if (missing.length > 0) console.warn(`[topology] skipped: ${missing.join('; ')}`);

/** Resolves the test's host names to 127.0.0.1 and everything else as usual (net's `lookup` option). */
const lookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
  if (hostname !== PARTY_HOST && hostname !== CMS_HOST) return dns.lookup(hostname, options, callback as never);
  if (options.all) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
  return callback(null, '127.0.0.1', 4);
}) as unknown as typeof dns.lookup;

/** A child process whose output is kept for the failure message. */
class Child {
  output = '';
  readonly exited: Promise<void>;
  constructor(readonly proc: ChildProcess) {
    proc.stdout?.on('data', (d: Buffer) => (this.output = (this.output + d.toString()).slice(-20_000)));
    proc.stderr?.on('data', (d: Buffer) => (this.output = (this.output + d.toString()).slice(-20_000)));
    this.exited = new Promise((resolve) => proc.once('exit', () => resolve()));
  }
  get alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }
  async stop(): Promise<void> {
    if (!this.alive) return;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Polls until `check` holds (a throwing check is "not yet"), naming the processes' output on timeout. */
async function until(what: string, check: () => Promise<boolean>, children: Child[], timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    const dead = children.find((c) => !c.alive);
    if (dead || Date.now() > end) throw new Error(`${dead ? 'a process exited' : 'timed out'} waiting for ${what}:\n${children.map((c) => c.output).join('\n---\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(missing.length > 0)('the reference deployment: nginx with TLS and two host names in front of two nodes on PostgreSQL and Redis', { timeout: 240_000 }, () => {
  let dir: string;
  let partyUrl: string;
  let cmsUrl: string;
  let nodePorts: { party: number; sockets: number; cms: number }[] = [];
  let db: { url: string; drop: () => Promise<void> } | undefined;
  const children: Child[] = [];
  let nginx: Child | undefined;
  let previousDispatcher: Dispatcher;
  let wsOptions: ClientOptions;
  let browser: Browser | undefined;
  let page: Page;
  const sockets: TestSocket[] = [];
  const failed: string[] = [];

  beforeAll(async () => {
    const builds = Promise.all([buildAdminWeb(), buildPartyWeb()]);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-topology-'));
    // nginx's workers run as `nobody` when the master is root: they read and write under `dir`.
    fs.chmodSync(dir, 0o755);
    const { cert, key, ca } = selfSignedCertificate(dir, [PARTY_HOST, CMS_HOST]);

    const proxyPort = await freePort();
    partyUrl = `https://${PARTY_HOST}:${proxyPort}`;
    cmsUrl = `https://${CMS_HOST}:${proxyPort}`;
    nodePorts = [];
    for (let i = 0; i < 2; i++) nodePorts.push({ party: await freePort(), sockets: await freePort(), cms: await freePort() });
    db = await createPostgresDatabase();

    // The settings that must match on every node (docs/DEPLOY.md), once; then each node's own.
    const shared = {
      NODE_ENV: 'production',
      EMULATORS: 'spotify,apple',
      DEMO_SEED: 'true',
      DEMO_START_DELAY_SECONDS: '300',
      DATABASE_URL: db.url,
      REDIS_URL: process.env.TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: `fanfare-topology-${process.pid}-${Date.now()}:`,
      PUBLIC_URL: partyUrl,
      CMS_PUBLIC_URL: cmsUrl,
      SESSION_SECRET: 'topology-session-secret-0123456789',
      CMS_ADMIN_TOKEN: TEST_CMS_TOKEN,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      METRICS_TOKEN,
      TRUST_PROXY: '127.0.0.1',
      // The provider stands outside the deployment: node 1's built-in emulator plays Spotify and
      // Apple for both nodes (a node cannot resolve party.test, nor trust the test's certificate).
      SPOTIFY_ACCOUNTS_URL: `http://127.0.0.1:${nodePorts[0]!.party}/emulator/spotify/accounts`,
      SPOTIFY_API_URL: `http://127.0.0.1:${nodePorts[0]!.party}/emulator/spotify/api/v1`,
      APPLE_API_URL: `http://127.0.0.1:${nodePorts[0]!.party}/emulator/apple/v1`,
      DATA_DIR: path.join(dir, 'data'),
      LOG_LEVEL: 'warn',
    };
    for (const ports of nodePorts) {
      const env: NodeJS.ProcessEnv = { ...process.env, ...shared, HOST: '127.0.0.1', PORT: String(ports.party), SOCKET_PORT: String(ports.sockets), CMS_PORT: String(ports.cms) };
      delete env.NODE_OPTIONS;
      const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: path.join(ROOT, 'apps/server'), env, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(new Child(proc));
    }

    writeProxyConfig(NGINX!, {
      dir,
      listen: `127.0.0.1:${proxyPort}`,
      partyHost: PARTY_HOST,
      cmsHost: CMS_HOST,
      cert,
      key,
      nodes: [
        { party: `127.0.0.1:${nodePorts[0]!.party}`, sockets: `127.0.0.1:${nodePorts[0]!.sockets}`, cms: `127.0.0.1:${nodePorts[0]!.cms}` },
        { party: `127.0.0.1:${nodePorts[1]!.party}`, sockets: `127.0.0.1:${nodePorts[1]!.sockets}`, cms: `127.0.0.1:${nodePorts[1]!.cms}` },
      ],
    });
    nginx = new Child(startProxy(NGINX!, dir));
    children.push(nginx);

    // The test's own clients: our host names to 127.0.0.1, TLS checked against the test's certificate.
    previousDispatcher = getGlobalDispatcher();
    setGlobalDispatcher(new Agent({ connect: { lookup, ca } }));
    // ws hands `lookup` on to https.request (its own type does not name it).
    wsOptions = { lookup, ca } as ClientOptions;

    await until('both nodes ready through the proxy', async () => {
      for (const ports of nodePorts) if ((await fetch(`http://127.0.0.1:${ports.party}/readyz`)).status !== 200) return false;
      return (await fetch(`${partyUrl}/readyz`)).status === 200 && (await fetch(`${cmsUrl}/readyz`)).status === 200;
    }, children, 120_000);
    await builds;

    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${PARTY_HOST} 127.0.0.1, MAP ${CMS_HOST} 127.0.0.1`, '--ignore-certificate-errors'],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
    page.on('requestfailed', (r) => {
      const error = r.failure()?.errorText ?? '';
      if (error !== 'net::ERR_ABORTED') failed.push(`${r.url()}: ${error}`);
    });
  }, 240_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await browser?.close();
    if (previousDispatcher) setGlobalDispatcher(previousDispatcher);
    await Promise.all(children.map((c) => c.stop()));
    await db?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('the proxy terminates TLS for both host names and keeps /metrics from the public', async () => {
    const party = await fetch(`${partyUrl}/`);
    expect(party.status).toBe(200);
    // The page names the public origins from configuration, as the browser sees them.
    expect(await party.text()).toContain(partyUrl);
    expect((await fetch(`${cmsUrl}/admin/`)).status).toBe(200);
    // The nodes serve it to a scraper with the token; the proxy does not pass it on.
    expect((await fetch(`${partyUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(404);
    expect((await fetch(`${cmsUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(404);
  });

  it('a fan logs in through the emulator, signs up, opens the socket, chats and votes; a fan on the other node hears it', async () => {
    // Each login's redirects cross both nodes (round robin): the OAuth state signed on one is checked on the other.
    const fans = [];
    for (const hint of ['demo-fan', 'lena']) {
      const finalUrl = await spotifyRedirectChain(partyUrl, hint, { partyId: DEMO_PARTY_ID });
      expect(finalUrl.origin).toBe(partyUrl);
      const login = LoginRedirectSuccess.safeParse(Object.fromEntries(finalUrl.searchParams));
      if (!login.success) throw new Error(`the login ended at ${finalUrl.toString()}`);
      const client = new PartyClient({ baseUrl: partyUrl, accessToken: login.data.access_token });
      await client.call('signup', { params: { id: DEMO_PARTY_ID }, body: { real_name: hint, display_name: hint } });
      fans.push({ token: login.data.access_token, client });
    }
    for (const f of fans) {
      const s = new TestSocket(`wss://${PARTY_HOST}:${new URL(partyUrl).port}/api/parties/${DEMO_PARTY_ID}?access_token=${encodeURIComponent(f.token)}`, true, wsOptions);
      sockets.push(s);
      await s.next('hello');
    }
    // One socket per node: the proxy sent them to different nodes, which Redis joins.
    const scrapes = await Promise.all(nodePorts.map(async (p) => (await fetch(`http://127.0.0.1:${p.party}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()));
    expect(scrapes.map((t) => sample(t, 'fanfare_sockets_open'))).toEqual([1, 1]);
    for (const t of scrapes) expect(sample(t, 'fanfare_redis_connected')).toBeGreaterThanOrEqual(2);

    await fans[0]!.client.call('postChatMessage', { params: { id: DEMO_PARTY_ID }, body: { text: 'hello through nginx' } });
    for (const s of sockets) await s.next('message', (e) => JSON.stringify(e).includes('hello through nginx'));
    const tracks = (await fans[0]!.client.call('getTracks', { params: { id: DEMO_PARTY_ID } })).items;
    await fans[1]!.client.call('voteTrack', { params: { id: DEMO_PARTY_ID, trackId: tracks.at(-1)!.id } });
    for (const s of sockets) await s.next('votes_changed');
  });

  it('the back office signs in on the CMS host name and lists the parties from the party host name', async () => {
    await page.goto(`${cmsUrl}/admin/`);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.locator('input[type="password"]').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Campaigns', level: 2 }).waitFor();
    await page.getByRole('link', { name: 'Parties' }).click();
    await page.getByRole('heading', { name: 'Parties', level: 1 }).waitFor();
    await page.getByRole('region', { name: /parties$/ }).first().getByText(DEMO_PARTY_ID).first().waitFor();
    expect(await page.getByText('Something went wrong').count()).toBe(0);
  });

  it('the party editor shows the party app from the party host name in its preview and saves through the proxy', async () => {
    await page.goto(`${cmsUrl}/admin/#/parties/${DEMO_PARTY_ID}`);
    const name = page.getByRole('textbox', { name: 'Name', exact: true });
    await name.waitFor();
    await name.fill(RENAMED);
    const status = page.getByTestId('preview-status');
    await waitFor('the preview frame to answer', async () => (await status.textContent()) === 'Shows your unsaved changes' || undefined, 30_000);
    const frame = page.frames().find((f) => f.url().startsWith(`${partyUrl}/p/${DEMO_PARTY_ID}/`));
    expect(frame).toBeDefined();
    await name.press('Control+s');
    const cms = new PartyClient({ baseUrl: partyUrl, cmsToken: TEST_CMS_TOKEN });
    await waitFor('the saved name', async () => (await cms.call('getParty', { params: { id: DEMO_PARTY_ID } })).name === RENAMED || undefined, 20_000);
  });

  it('the live dashboard holds its socket through the proxy', async () => {
    await page.goto(`${cmsUrl}/admin/#/parties/${DEMO_PARTY_ID}/dashboard`);
    await page.getByRole('heading', { name: 'Live dashboard' }).waitFor();
    await waitFor('the dashboard socket', async () => (await page.getByTestId('connection').textContent())?.trim() === 'live' || undefined, 30_000);
    expect(failed).toEqual([]);
  });
});
