/**
 * The reference proxy of `deploy/` on this machine, for the topology test and the rolling-restart
 * bench: Debian's nginx with `deploy/nginx/fanfare.conf.template` rendered as an operator renders
 * it, a self-signed certificate for the two host names, and every path (pid, logs, temp files)
 * inside one folder, so nothing root-owned is touched.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** nginx's binary: Debian's package puts it in /usr/sbin, which a non-root PATH may lack. */
export function findNginx(): string | null {
  for (const p of ['/usr/sbin/nginx', '/usr/local/sbin/nginx']) if (fs.existsSync(p)) return p;
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

/** Replaces `${NAME}` for each given name and fails on any placeholder left. */
export function renderTemplate(template: string, values: Record<string, string>): string {
  let text = template;
  for (const [name, value] of Object.entries(values)) text = text.replaceAll(`\${${name}}`, value);
  const left = /\$\{[A-Z0-9_]+\}/.exec(text);
  if (left) throw new Error(`placeholder ${left[0]} left in the nginx configuration`);
  return text;
}

/** A self-signed certificate (its own CA) for `hosts`, written into `dir`; `ca` is what clients trust. */
export function selfSignedCertificate(dir: string, hosts: string[]): { cert: string; key: string; ca: Buffer } {
  const cert = path.join(dir, 'tls.crt');
  const key = path.join(dir, 'tls.key');
  const openssl = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${hosts[0]}`,
    '-addext', `subjectAltName=${hosts.map((h) => `DNS:${h}`).join(',')}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-keyout', key, '-out', cert], { encoding: 'utf8' });
  if (openssl.status !== 0) throw new Error(`openssl failed: ${openssl.stderr}`);
  // nginx's workers run as `nobody` when the master is root.
  fs.chmodSync(key, 0o644);
  return { cert, key, ca: fs.readFileSync(cert) };
}

export interface ProxyNode {
  party: string;
  sockets?: string;
  cms: string;
}

export interface ProxyConfig {
  /** The folder for the configuration, pid, logs and temp files (readable by nginx's workers). */
  dir: string;
  /** `127.0.0.1:port` */
  listen: string;
  partyHost: string;
  cmsHost: string;
  cert: string;
  key: string;
  /** The two nodes of the template, `127.0.0.1:port` each; `sockets` is the SOCKET_PORT (default: `party`). */
  nodes: [ProxyNode, ProxyNode];
  workerProcesses?: number;
  /** Connections per worker: a proxied socket takes two. */
  workerConnections?: number;
}

/** Renders the template and an nginx.conf around it into `dir`, and has `nginx -t` check them; returns the nginx.conf path. */
export function writeProxyConfig(nginx: string, c: ProxyConfig): string {
  const template = fs.readFileSync(path.join(ROOT, 'deploy/nginx/fanfare.conf.template'), 'utf8');
  fs.writeFileSync(path.join(c.dir, 'fanfare.conf'), renderTemplate(template, {
    LISTEN: c.listen,
    PARTY_HOST: c.partyHost,
    CMS_HOST: c.cmsHost,
    TLS_CERT: c.cert,
    TLS_KEY: c.key,
    NODE1_PARTY: c.nodes[0].party,
    NODE2_PARTY: c.nodes[1].party,
    NODE1_SOCKETS: c.nodes[0].sockets ?? c.nodes[0].party,
    NODE2_SOCKETS: c.nodes[1].sockets ?? c.nodes[1].party,
    NODE1_CMS: c.nodes[0].cms,
    NODE2_CMS: c.nodes[1].cms,
  }));
  // What Debian's /etc/nginx/nginx.conf provides, with every path inside `dir`: no root-owned
  // pid, log or temp file, and nothing of the package's own site on port 80.
  const temp = (name: string) => `${name}_temp_path ${path.join(c.dir, name)};`;
  const workerConnections = c.workerConnections ?? 1024;
  const conf = path.join(c.dir, 'nginx.conf');
  fs.writeFileSync(conf, [
    process.getuid?.() === 0 ? 'user root;' : '',
    'daemon off;',
    `worker_processes ${c.workerProcesses ?? 1};`,
    workerConnections > 1024 ? `worker_rlimit_nofile ${workerConnections * 2};` : '',
    `pid ${path.join(c.dir, 'nginx.pid')};`,
    `error_log ${path.join(c.dir, 'error.log')} warn;`,
    `events { worker_connections ${workerConnections}; }`,
    'http {',
    `  access_log ${path.join(c.dir, 'access.log')};`,
    `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
    `  include ${path.join(c.dir, 'fanfare.conf')};`,
    '}',
  ].join('\n'));
  const check = spawnSync(nginx, ['-t', '-p', c.dir, '-c', conf, '-e', path.join(c.dir, 'error.log')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused the rendered configuration:\n${check.stderr}`);
  return conf;
}

/** Starts nginx in the foreground on a configuration written by `writeProxyConfig`. */
export function startProxy(nginx: string, dir: string): ChildProcess {
  return spawn(nginx, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
}
