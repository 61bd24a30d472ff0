import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './platform/config.ts';
import { createLogger } from './platform/logger.ts';
import { startServer } from './server.ts';
import { freePort } from './test/harness.ts';

function listenOn(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => resolve(srv));
  });
}

describe('server start-up', () => {
  it('a port already taken fails the start with EADDRINUSE and releases what was started (the other listener, timers, database)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-start-'));
    const [partyPort, cmsPort] = [await freePort(), await freePort()];
    const taken = await listenOn(cmsPort);
    try {
      const config = loadConfig({ PORT: String(partyPort), CMS_PORT: String(cmsPort), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_SEED: 'false' });
      await expect(startServer(config, { logger: createLogger('silent') })).rejects.toMatchObject({ code: 'EADDRINUSE' });
      // The party listener, which did start, was closed again: its port is free.
      const again = await listenOn(partyPort);
      await new Promise((r) => again.close(r));
    } finally {
      await new Promise((r) => taken.close(r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
