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

/** Opens the two connections to `url`; errors are logged, ioredis reconnects by itself. */
export function connectRedis(url: string, prefix: string, logger: Logger): RedisPair {
  const commands = new Redis(url, { maxRetriesPerRequest: 3, enableAutoPipelining: true });
  const subscriber = commands.duplicate({ enableAutoPipelining: false });
  for (const [name, conn] of [
    ['commands', commands],
    ['subscriber', subscriber],
  ] as const) {
    conn.on('error', (err: unknown) => logger.warn({ err, connection: name }, 'redis connection error'));
  }
  return {
    commands,
    subscriber,
    prefix,
    async close() {
      await Promise.allSettled([commands.quit(), subscriber.quit()]);
      commands.disconnect();
      subscriber.disconnect();
    },
  };
}
