/**
 * Production mode (NODE_ENV=production): the emulators and the demo seed run only when named, and
 * the server refuses unsafe settings, each refusal naming what to set.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCmsClient } from '@fanfare/client/cms';
import { DEMO_PARTY_ID } from '../demo/seed.ts';
import { startServer } from '../server.ts';
import { freePort } from '../test/harness.ts';
import { loadConfig } from './config.ts';
import { createLogger } from './logger.ts';

/** A production configuration with nothing missing. */
const PRODUCTION: Record<string, string> = {
  NODE_ENV: 'production',
  SESSION_SECRET: 'a-long-random-session-secret-0123456789',
  PUBLIC_URL: 'https://party.label.example',
  CMS_PUBLIC_URL: 'https://cms.label.example',
  SPOTIFY_CLIENT_ID: 'label-client-id',
  SPOTIFY_CLIENT_SECRET: 'label-client-secret',
  APPLE_DEVELOPER_TOKEN: 'label-developer-token',
};
const ADMIN = { email: 'ops@label.example', password: 'a-chosen-admin-password-42' };

const without = (name: string) => Object.fromEntries(Object.entries(PRODUCTION).filter(([k]) => k !== name));

describe('production configuration (NODE_ENV=production)', () => {
  it('loads when every setting is safe: no emulator, no demo seed', () => {
    const c = loadConfig(PRODUCTION);
    expect(c.production).toBe(true);
    expect(c.emulators).toEqual({ spotify: false, apple: false });
    expect(c.demo.seed).toBe(false);
  });

  it('runs the emulators and the demo seed when asked for by name', () => {
    const c = loadConfig({ ...without('APPLE_DEVELOPER_TOKEN'), SPOTIFY_CLIENT_ID: '', SPOTIFY_CLIENT_SECRET: '', EMULATORS: 'spotify, apple', DEMO_SEED: 'true' });
    expect(c.emulators).toEqual({ spotify: true, apple: true });
    expect(c.demo.seed).toBe(true);
  });

  it('refuses to start without SESSION_SECRET, naming it', () => {
    expect(() => loadConfig(without('SESSION_SECRET'))).toThrow(/SESSION_SECRET is not set: set it/);
  });

  it('refuses to start without PUBLIC_URL or CMS_PUBLIC_URL, naming them', () => {
    expect(() => loadConfig(without('PUBLIC_URL'))).toThrow(/PUBLIC_URL is not set: set it to the https:\/\/ address/);
    expect(() => loadConfig(without('CMS_PUBLIC_URL'))).toThrow(/CMS_PUBLIC_URL is not set: set it to the https:\/\/ address/);
  });

  it('refuses public URLs that are not https, naming the setting and its value', () => {
    expect(() => loadConfig({ ...PRODUCTION, PUBLIC_URL: 'http://party.label.example' })).toThrow(/PUBLIC_URL is http:\/\/party\.label\.example: set it to an https:\/\/ address/);
    expect(() => loadConfig({ ...PRODUCTION, CMS_PUBLIC_URL: 'http://cms.label.example' })).toThrow(/CMS_PUBLIC_URL is http:\/\/cms\.label\.example: set it to an https:\/\/ address/);
    expect(() => loadConfig({ ...PRODUCTION, ALLOWED_REDIRECT_ORIGINS: 'https://www.label.example,http://shop.label.example' })).toThrow(
      /ALLOWED_REDIRECT_ORIGINS has http:\/\/shop\.label\.example: list https:\/\/ origins only/,
    );
  });

  it('accepts plain http on a loopback host only (a secure context to browsers, reached from this machine alone)', () => {
    expect(loadConfig({ ...PRODUCTION, PUBLIC_URL: 'http://127.0.0.1:18080', CMS_PUBLIC_URL: 'http://localhost:11337' }).publicUrl).toBe('http://127.0.0.1:18080');
    expect(() => loadConfig({ ...PRODUCTION, PUBLIC_URL: 'http://10.0.0.5:8080' })).toThrow(/PUBLIC_URL is http:\/\/10\.0\.0\.5:8080/);
  });

  it('refuses a provider without credentials unless its emulator is named, saying which to set', () => {
    expect(() => loadConfig(without('SPOTIFY_CLIENT_SECRET'))).toThrow(/set SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET, or EMULATORS=spotify/);
    expect(() => loadConfig(without('APPLE_DEVELOPER_TOKEN'))).toThrow(/set APPLE_DEVELOPER_TOKEN, or EMULATORS=apple/);
  });

  it('names every refusal at once', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (e) {
      message = (e as Error).message;
    }
    for (const name of ['SESSION_SECRET', 'PUBLIC_URL', 'CMS_PUBLIC_URL', 'SPOTIFY_CLIENT_ID', 'APPLE_DEVELOPER_TOKEN']) expect(message).toContain(name);
  });

  it('refuses an emulator name it does not know', () => {
    expect(() => loadConfig({ ...PRODUCTION, EMULATORS: 'deezer' })).toThrow(/EMULATORS/);
  });

  it('leaves other environments as they were: emulators and the demo seed on by default', () => {
    const c = loadConfig({ NODE_ENV: 'test' });
    expect(c.production).toBe(false);
    expect(c.emulators).toEqual({ spotify: true, apple: true });
    expect(c.demo.seed).toBe(true);
  });
});

describe('production start-up and the first admin', () => {
  it('refuses a first start without ADMIN_PASSWORD (a printed password would sit in the log), then starts once it is set, and later starts need it no more', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-prod-admin-'));
    const logger = createLogger('silent');
    const configAt = async (env: Record<string, string>) =>
      loadConfig({ ...PRODUCTION, HOST: '127.0.0.1', PORT: String(await freePort()), CMS_PORT: String(await freePort()), DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
    try {
      await expect(startServer(await configAt({}), { logger })).rejects.toThrow(/set ADMIN_PASSWORD/);
      const first = await startServer(await configAt({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }), { logger });
      await first.close();
      // Another node, or the next start: the admin exists, so ADMIN_PASSWORD may be gone.
      const next = await startServer(await configAt({}), { logger });
      await next.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

const serverDir = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));

/** Runs `npm start`'s program (src/main.ts) with `env`; resolves with its output once `done` holds or it exits. */
function runMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    // Only what the test names: no variable of the shell running the suite leaks in.
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}

describe('the server program in production mode', () => {
  it('exits with a refusal that names what to set when nothing is configured', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-prod-refused-'));
    try {
      const run = runMain({ NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(await freePort()), CMS_PORT: String(await freePort()) });
      expect(await run.exited).toBe(1);
      expect(run.output()).toMatch(/Refusing to start with NODE_ENV=production/);
      expect(run.output()).toMatch(/SESSION_SECRET is not set: set it/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('starts correctly configured: serves both surfaces, no emulator routes, no demo party, the chosen admin password signs in', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-prod-'));
    const [port, cmsPort] = [await freePort(), await freePort()];
    const party = `http://127.0.0.1:${port}`;
    const cms = `http://127.0.0.1:${cmsPort}`;
    const run = runMain({ ...PRODUCTION, HOST: '127.0.0.1', PORT: String(port), CMS_PORT: String(cmsPort), DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    try {
      await until(() => run.output().includes('Fanfare is running') || run.child.exitCode !== null, 45_000);
      expect(run.output()).toContain('Fanfare is running');
      // The printed addresses are the public ones, and no password is printed.
      expect(run.output()).toContain('https://party.label.example/');
      expect(run.output()).toContain('https://cms.label.example/admin/');
      expect(run.output()).not.toContain(ADMIN.password);
      expect((await fetch(`${party}/readyz`)).status).toBe(200);
      expect((await fetch(`${cms}/readyz`)).status).toBe(200);
      expect((await fetch(`${party}/emulator/spotify/accounts/authorize`)).status).toBe(404);
      expect((await fetch(`${party}/emulator/apple/authorize`)).status).toBe(404);
      expect((await fetch(`${party}/api/parties/${DEMO_PARTY_ID}`)).status).toBe(404);
      const signedIn = await createCmsClient({ baseUrl: cms }).call('login', { body: { email: ADMIN.email, password: ADMIN.password } });
      expect(signedIn.user.must_change_password).toBe(false);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
