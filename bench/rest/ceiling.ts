/**
 * The ceilings of the REST bench, bare `node:http` servers with no framework and no database:
 * - by default, every request answered with a small JSON body: what one Node process on this
 *   machine can answer at most;
 * - with `REPLAY_FILE`, every request answered with one captured Fanfare answer (status, headers
 *   and body byte for byte): the fair reference of a read served from memory, since a bigger
 *   answer costs more to write whoever writes it.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

/** A captured answer, as `bench/rest/main.ts` writes it for `REPLAY_FILE`. */
export interface ReplayedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const port = Number(process.env.PORT);
const replay = process.env.REPLAY_FILE ? (JSON.parse(readFileSync(process.env.REPLAY_FILE, 'utf8')) as ReplayedAnswer) : null;
const body = replay ? Buffer.from(replay.body) : Buffer.from(JSON.stringify({ track_id: 'ceiling', votes: 1, voted: true }));
const status = replay?.status ?? 200;
const headers = { ...(replay?.headers ?? { 'content-type': 'application/json; charset=utf-8' }), 'content-length': String(body.length) };
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(status, headers);
    res.end(body);
  });
});
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
