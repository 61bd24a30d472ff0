import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * A request's id, which its log lines and the `x-request-id` header carry: the caller's own when it
 * is a plain token (a proxy's, to follow one request across services), else a fresh UUID.
 */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
}
