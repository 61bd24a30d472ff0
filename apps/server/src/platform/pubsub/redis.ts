import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** A Redis connection for commands and a second one for subscriptions (Redis requires two). */
export interface RedisPair {
  commands: Redis;
  subscriber: Redis;
  /** Prefix for every key and channel of this deployment. */
  prefix: string;
  close(): Promise<void>;
}

/** The Redis connections this process holds open, for the metrics' connection state. */
const openConnections = new Set<{ name: string; prefix: string; conn: Redis }>();

/** Each open Redis connection of the process: its role, key prefix and ioredis status (`ready` when usable). */
export function redisConnections(): { name: string; prefix: string; status: string }[] {
  return [...openConnections].map((c) => ({ name: c.name, prefix: c.prefix, status: c.conn.status }));
}

/** Opens the two connections to `url`; errors are logged, ioredis reconnects by itself. */
export function connectRedis(url: string, prefix: string, logger: Logger): RedisPair {
  // A command sent but not answered when the connection drops is not sent again after the
  // reconnect: a party script whose answer was lost may have run (numbered and published its
  // event), and running it twice would deliver the event twice. The caller gets an error instead.
  const commands = new Redis(url, { maxRetriesPerRequest: 3, enableAutoPipelining: true, autoResendUnfulfilledCommands: false });
  const subscriber = commands.duplicate({ enableAutoPipelining: false, autoResendUnfulfilledCommands: true });
  for (const [name, conn] of [
    ['commands', commands],
    ['subscriber', subscriber],
  ] as const) {
    conn.on('error', (err: unknown) => logger.warn({ err, connection: name }, 'redis connection error'));
  }
  const tracked = [
    { name: 'commands', prefix, conn: commands },
    { name: 'subscriber', prefix, conn: subscriber },
  ];
  for (const t of tracked) openConnections.add(t);
  return {
    commands,
    subscriber,
    prefix,
    async close() {
      for (const t of tracked) openConnections.delete(t);
      await Promise.allSettled([commands.quit(), subscriber.quit()]);
      commands.disconnect();
      subscriber.disconnect();
    },
  };
}

/** True when `err` says Redis is unreachable (ioredis gave up on a command while reconnecting). */
export function isRedisUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return err.name === 'MaxRetriesPerRequestError' || /^Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET/.test(err.message);
}
