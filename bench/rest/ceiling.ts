/**
 * The ceiling of the REST bench: a bare `node:http` server answering every request with a small
 * JSON body, no framework, no database. What one Node process on this machine can answer at most.
 */
import http from 'node:http';

const port = Number(process.env.PORT);
const body = JSON.stringify({ track_id: 'ceiling', votes: 1, voted: true });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
