import type { SequencedEvent } from '@fanfare/protocol';
import type { Logger } from 'pino';
import type { RedisPair } from '../../platform/pubsub/redis.ts';
import {
  DEFAULT_HUB_OPTIONS,
  serializeEvent,
  type Audience,
  type HubHistory,
  type HubOptions,
  type LoggedEvent,
  type PartyHub,
  type PartyListener,
  type SequencedEventInput,
} from './hub.ts';
import { Sequencer } from './sequencer.ts';

// One Redis message per event: the audience JSON (or nothing), a newline, then the event JSON.
// KEYS: seq counter, log (sorted set scored by seq_id), trimmed-through marker.

/**
 * Lua shared by both scripts: logs `msg` at score `seq`, trims the log to its cap (remembering
 * the last trimmed seq_id, so resume knows what it can no longer replay), refreshes the expiry,
 * and publishes. `cap`, `ttl` and `channel` are Lua expressions.
 */
const logAndPublish = (seq: string, msg: string, cap: string, ttl: string, channel: string) => `
redis.call('ZADD', KEYS[2], ${seq}, ${msg})
local n = redis.call('ZCARD', KEYS[2])
local cap = tonumber(${cap})
if n > cap then
  local cut = redis.call('ZRANGE', KEYS[2], n - cap - 1, n - cap - 1, 'WITHSCORES')
  redis.call('SET', KEYS[3], cut[2])
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, n - cap - 1)
end
redis.call('PEXPIRE', KEYS[2], ${ttl})
redis.call('PEXPIRE', KEYS[3], ${ttl})
redis.call('PUBLISH', ${channel}, ${msg})
`;

/** Numbers, logs and publishes an event in one atomic step, so publish order is seq_id order. */
const EMIT_LUA = `
local seq = redis.call('INCR', KEYS[1])
local msg = ARGV[4] .. '\\n{"seq_id":' .. seq .. ',"server_time_ms":' .. ARGV[2] .. ',' .. ARGV[3]
${logAndPublish('seq', 'msg', 'ARGV[5]', 'ARGV[6]', 'ARGV[1]')}
return seq
`;

/** Logs and publishes an event numbered earlier with `nextSeq`. */
const PUBLISH_LUA = `
${logAndPublish('ARGV[2]', 'ARGV[3]', 'ARGV[4]', 'ARGV[5]', 'ARGV[1]')}
return 1
`;
/** The retained log of an idle party expires after this. */
const LOG_TTL_MS = 6 * 3600_000;

interface Subscription {
  listeners: Set<PartyListener>;
  sequencer: Sequencer<LoggedEvent>;
  ready: Promise<number>;
}

type ScriptRunner = (...args: (string | number)[]) => Promise<number>;

/**
 * The clustered hub: sequence numbers from Redis INCR, the retained log in a Redis sorted set, and
 * delivery through Redis pub/sub to every node with sockets of the party. Numbering, logging and
 * publishing happen in one Lua script, so every node receives a party's events in `seq_id` order.
 */
export class RedisPartyHub implements PartyHub {
  private readonly subs = new Map<string, Subscription>();
  /** Party id of each subscribed channel. */
  private readonly channelParties = new Map<string, string>();
  private readonly options: HubOptions;
  private readonly emitScript: ScriptRunner;
  private readonly publishScript: ScriptRunner;

  constructor(
    private readonly redis: RedisPair,
    private readonly now: () => number,
    private readonly logger: Logger,
    options: Partial<HubOptions> = {},
  ) {
    this.options = { ...DEFAULT_HUB_OPTIONS, ...options };
    redis.commands.defineCommand('fanfarePartyEmit', { numberOfKeys: 3, lua: EMIT_LUA });
    redis.commands.defineCommand('fanfarePartyPublish', { numberOfKeys: 3, lua: PUBLISH_LUA });
    const commands = redis.commands as unknown as Record<string, ScriptRunner>;
    this.emitScript = (...args) => commands.fanfarePartyEmit!.apply(redis.commands, args);
    this.publishScript = (...args) => commands.fanfarePartyPublish!.apply(redis.commands, args);
    redis.subscriber.on('message', (channel: string, message: string) => this.onMessage(channel, message));
  }

  private key(partyId: string, what: 'seq' | 'log' | 'trimmed'): string {
    return `${this.redis.prefix}party:{${partyId}}:${what}`;
  }

  private channel(partyId: string): string {
    return `${this.redis.prefix}party:{${partyId}}:events`;
  }

  private keys(partyId: string): string[] {
    return [this.key(partyId, 'seq'), this.key(partyId, 'log'), this.key(partyId, 'trimmed')];
  }

  async nextSeq(partyId: string): Promise<number> {
    return Number(await this.redis.commands.incr(this.key(partyId, 'seq')));
  }

  async head(partyId: string): Promise<number> {
    return Number((await this.redis.commands.get(this.key(partyId, 'seq'))) ?? 0);
  }

  async emit(partyId: string, event: SequencedEventInput, audience?: Audience): Promise<SequencedEvent> {
    const serverTime = this.now();
    const body = JSON.stringify(event).slice(1);
    const seq = Number(
      await this.emitScript(
        ...this.keys(partyId),
        this.channel(partyId),
        String(serverTime),
        body,
        audience ? JSON.stringify(audience) : '',
        this.options.retainEvents,
        LOG_TTL_MS,
      ),
    );
    return { seq_id: seq, server_time_ms: serverTime, ...event } as SequencedEvent;
  }

  async publish(partyId: string, event: SequencedEvent, audience?: Audience): Promise<void> {
    const message = `${audience ? JSON.stringify(audience) : ''}\n${serializeEvent(event)}`;
    await this.publishScript(...this.keys(partyId), this.channel(partyId), event.seq_id, message, this.options.retainEvents, LOG_TTL_MS);
  }

  subscribe(partyId: string, listener: PartyListener): () => void {
    let sub = this.subs.get(partyId);
    if (!sub) {
      const listeners = new Set<PartyListener>();
      const sequencer = new Sequencer<LoggedEvent>(
        this.options.gapTimeoutMs,
        (item) => {
          for (const l of listeners) l(item.event, item.audience, item.json);
        },
        // Missed pub/sub messages (a reconnect) are still in the party's log.
        async (from, to) => {
          const found = await this.redis.commands.zrangebyscore(this.key(partyId, 'log'), from, to);
          return found.map((m) => {
            const item = parseMessage(m);
            return [item.event.seq_id, item] as [number, LoggedEvent];
          });
        },
      );
      this.channelParties.set(this.channel(partyId), partyId);
      const ready = (async () => {
        await this.redis.subscriber.subscribe(this.channel(partyId));
        // Subscribed first, head second: every event after the head reaches this node.
        sequencer.start(await this.head(partyId));
        return sequencer.delivered ?? 0;
      })();
      ready.catch((err: unknown) => this.logger.error({ err, partyId }, 'redis subscribe failed'));
      sub = { listeners, sequencer, ready };
      this.subs.set(partyId, sub);
    }
    const current = sub;
    current.listeners.add(listener);
    return () => {
      current.listeners.delete(listener);
      if (current.listeners.size > 0 || this.subs.get(partyId) !== current) return;
      this.subs.delete(partyId);
      this.channelParties.delete(this.channel(partyId));
      current.sequencer.close();
      this.redis.subscriber.unsubscribe(this.channel(partyId)).catch(() => undefined);
    };
  }

  async ready(partyId: string): Promise<number> {
    const sub = this.subs.get(partyId);
    return sub ? sub.ready : this.head(partyId);
  }

  async history(partyId: string, afterSeq: number): Promise<HubHistory> {
    const [log, trimmed, head, exists] = (await this.redis.commands
      .multi()
      .zrangebyscore(this.key(partyId, 'log'), `(${afterSeq}`, '+inf')
      .get(this.key(partyId, 'trimmed'))
      .get(this.key(partyId, 'seq'))
      .exists(this.key(partyId, 'log'))
      .exec())!.map(([err, value]) => {
      if (err) throw err;
      return value;
    }) as [string[], string | null, string | null, number];
    const headSeq = Number(head ?? 0);
    const events = log.map(parseMessage);
    const complete = afterSeq <= headSeq && afterSeq >= Number(trimmed ?? 0) && (exists === 1 || afterSeq >= headSeq);
    return { events, complete, head: headSeq };
  }

  async close(): Promise<void> {
    for (const sub of this.subs.values()) sub.sequencer.close();
    this.subs.clear();
    await this.redis.close();
  }

  private onMessage(channel: string, message: string): void {
    const partyId = this.channelParties.get(channel);
    const sub = partyId === undefined ? undefined : this.subs.get(partyId);
    if (!sub) return;
    try {
      const item = parseMessage(message);
      sub.sequencer.push(item.event.seq_id, item);
    } catch (err) {
      this.logger.error({ err, channel }, 'unreadable party event from redis');
    }
  }
}

function parseMessage(message: string): LoggedEvent {
  const cut = message.indexOf('\n');
  const audience = cut > 0 ? (JSON.parse(message.slice(0, cut)) as Audience) : undefined;
  const json = message.slice(cut + 1);
  return { event: JSON.parse(json) as SequencedEvent, audience, json };
}
