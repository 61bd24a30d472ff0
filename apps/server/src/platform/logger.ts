import pino, { type Logger } from 'pino';

/** JSON logs on stdout; every request line carries its request id (`reqId`). */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'fanfare' }, redact: ['req.headers.authorization', 'req.headers["x-cms-token"]'] });
}
