import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from './test/harness.ts';

const serverDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Waits (bounded) until `check` holds. */
async function until(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}

describe('the server program (npm start)', () => {
  it('starts both listeners on the embedded defaults, prints the URLs (the SOCKET_PORT listener\'s too), and exits cleanly on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-main-'));
    const [port, cmsPort, socketPort] = [await freePort(), await freePort(), await freePort()];
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { ...process.env, PORT: String(port), CMS_PORT: String(cmsPort), SOCKET_PORT: String(socketPort), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await until(() => out.includes('Fanfare is running'), 30_000);
      expect(out).toContain(`http://127.0.0.1:${port}/`);
      expect(out).toContain(`http://127.0.0.1:${cmsPort}/`);
      expect(out).toMatch(new RegExp(`Socket upgrades: +http://127\\.0\\.0\\.1:${socketPort}/`));
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${cmsPort}/healthz`)).status).toBe(200);
      // The demo party exists on a fresh install.
      const row = fs.existsSync(path.join(dataDir, 'fanfare.sqlite'));
      expect(row).toBe(true);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
