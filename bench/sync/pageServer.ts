/**
 * The sync bench's tiny web server: serves the fan page (page.html, page.js, hls.js from
 * node_modules) and passes every other request, WebSocket upgrades included, to the Fanfare
 * server, so the page talks to the party API from its own origin as the party web app does.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from '../lib/processes.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: path.join(HERE, 'page.html'), type: 'text/html; charset=utf-8' },
  '/page.js': { file: path.join(HERE, 'page.js'), type: 'text/javascript; charset=utf-8' },
  '/hls.min.js': { file: path.join(ROOT, 'node_modules/hls.js/dist/hls.min.js'), type: 'text/javascript; charset=utf-8' },
};

export interface PageServer {
  url: string;
  close(): Promise<void>;
}

/** Starts the page server on `port` of 127.0.0.1, in front of `upstream` (http://host:port). */
export function startPageServer(upstream: string, port: number): Promise<PageServer> {
  const up = new URL(upstream);
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const file = FILES[pathname];
    if (file) {
      res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' });
      res.end(readFileSync(file.file));
      return;
    }
    const proxied = http.request(
      { host: up.hostname, port: up.port, method: req.method, path: req.url, headers: { ...req.headers, host: up.host } },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      },
    );
    proxied.on('error', (err) => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: err.message }));
    });
    req.pipe(proxied);
  });
  // WebSocket: replay the upgrade request upstream, then splice the two TCP streams.
  server.on('upgrade', (req, client: net.Socket, head: Buffer) => {
    const upstreamSocket = net.connect(Number(up.port), up.hostname, () => {
      upstreamSocket.setNoDelay(true);
      client.setNoDelay(true);
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i]!;
        lines.push(`${name}: ${name.toLowerCase() === 'host' ? up.host : req.rawHeaders[i + 1]}`);
      }
      upstreamSocket.write(lines.join('\r\n') + '\r\n\r\n');
      if (head.length) upstreamSocket.write(head);
      upstreamSocket.pipe(client);
      client.pipe(upstreamSocket);
    });
    sockets.add(upstreamSocket).add(client);
    const drop = () => {
      upstreamSocket.destroy();
      client.destroy();
    };
    upstreamSocket.on('error', drop);
    client.on('error', drop);
    upstreamSocket.on('close', drop);
    client.on('close', drop);
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const addr = server.address() as net.AddressInfo;
      resolve({
        url: `http://127.0.0.1:${addr.port}`,
        close: () =>
          new Promise<void>((r) => {
            for (const s of sockets) s.destroy();
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
