import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ADMIN_WEB_DIST } from './cms/admin/webApp.ts';
import { PARTY_WEB_DIST } from './party/webApp.ts';
import { freePort } from './test/harness.ts';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function firstAnswer(url: string, child: { exitCode: number | null }, timeoutMs: number): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; i < 2000 && Date.now() < deadline; i++) {
    if (child.exitCode !== null) throw new Error(`the compiled server exited with ${child.exitCode}`);
    try {
      return await fetch(url, { signal: AbortSignal.timeout(2000) });
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`${url} did not answer`);
}

describe('the compiled server (npm start, the systemd unit)', () => {
  it('starts from dist/main.js and finds what lies beside its sources: the demo catalog and the web apps', async () => {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: SERVER_DIR, stdio: 'pipe' });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-compiled-'));
    const [port, cmsPort] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: SERVER_DIR,
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), CMS_PORT: String(cmsPort), DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', NODE_ENV: '' },
      stdio: 'ignore',
    });
    try {
      expect((await firstAnswer(`http://127.0.0.1:${port}/healthz`, child, 60_000)).status).toBe(200);
      // The demo seed reads the catalog's tracks from the repository's `catalog/` folder.
      const party = (await (await fetch(`http://127.0.0.1:${port}/api/parties/demo`)).json()) as { id: string };
      expect(party.id).toBe('demo');
      const tracks = (await (await fetch(`http://127.0.0.1:${port}/api/parties/demo/tracks`)).json()) as { items: unknown[] };
      expect(tracks.items.length).toBeGreaterThan(0);
      // Each web app is served from its own build folder, found from the source file that names it.
      const partyPage = await fetch(`http://127.0.0.1:${port}/`);
      expect(partyPage.status).toBe(fs.existsSync(path.join(PARTY_WEB_DIST, 'index.html')) ? 200 : 503);
      const admin = await fetch(`http://127.0.0.1:${cmsPort}/admin/`);
      expect(admin.status).toBe(fs.existsSync(path.join(ADMIN_WEB_DIST, 'index.html')) ? 200 : 503);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
