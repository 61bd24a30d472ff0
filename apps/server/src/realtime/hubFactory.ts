import type { Logger } from 'pino';
import type { Config } from '../platform/config.ts';
import { connectRedis } from '../platform/pubsub/redis.ts';
import { LocalPartyHub, type PartyHub } from './hub.ts';
import { RedisPartyHub } from './redisHub.ts';
import type { SeqBlocks } from './seqBlocks.ts';

/**
 * The party hub of this deployment: through Redis when `REDIS_URL` is set, else in-process. Both
 * take their seq_ids from `blocks` (the database), so numbering survives restarts of either.
 */
export function createPartyHub(config: Config, now: () => number, logger: Logger, blocks: SeqBlocks): PartyHub {
  const options = { retainEvents: config.live.retainEvents };
  if (!config.redisUrl) return new LocalPartyHub(now, options, blocks);
  return new RedisPartyHub(connectRedis(config.redisUrl, config.redisKeyPrefix, logger), now, logger, options, blocks);
}
