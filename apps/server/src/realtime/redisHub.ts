import type { SequencedEvent } from '@fanfare/protocol';
import type { Logger } from 'pino';
import type { RedisPair } from '../platform/pubsub/redis.ts';
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
import type { DependencyCheck } from '../platform/readiness.ts';
import type { SeqBlocks } from './seqBlocks.ts';
import { Sequencer } from './sequencer.ts';

// One Redis message per event: the audience JSON (or nothing), a newline, then the event JSON.
// KEYS: seq counter, log (sorted set scored by seq_id), trimmed-through marker, and the limit: the
// end of the highest block of seq_ids reserved in the database. The counter only counts up to
// the limit, so after Redis loses both (a restart), numbering resumes at a new block, above every
// seq_id handed out before.

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

/** One read of a party's log: its events after some seq_id, in order, and where it stands. */
interface LogRead {
  events: LoggedEvent[];
  trimmed: number;
  head: number;
  logExists: boolean;
}

interface ResumeReads {
  running: boolean;
  waiting: { afterSeq: number; resolve: (history: HubHistory) => void; reject: (err: unknown) => void }[];
}

/** What one resume gets of a read made from an earlier (or the same) seq_id. */
function historyAfter(read: LogRead, afterSeq: number): HubHistory {
  const complete = afterSeq <= read.head && afterSeq >= read.trimmed && (read.logExists || afterSeq >= read.head);
  if (!complete) return { events: [], complete, head: read.head };
  let lo = 0;
  let hi = read.events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (read.events[mid]!.event.seq_id <= afterSeq) lo = mid + 1;
    else hi = mid;
  }
  return { events: read.events.slice(lo), complete, head: read.head };
}

/** Returns -1 (the caller reserves a block, then retries) unless the counter is below its limit. */
const TAKE_SEQ = `
local current = redis.call('GET', KEYS[1])
local limit = redis.call('GET', KEYS[4])
if not current or not limit or tonumber(current) >= tonumber(limit) then return -1 end
local seq = redis.call('INCR', KEYS[1])
`;

/** Numbers, logs and publishes an event in one atomic step, so publish order is seq_id order. */
const EMIT_LUA = `
${TAKE_SEQ}
local msg = ARGV[4] .. '\\n{"seq_id":' .. seq .. ',"server_time_ms":' .. ARGV[2] .. ',' .. ARGV[3]
${logAndPublish('seq', 'msg', 'ARGV[5]', 'ARGV[6]', 'ARGV[1]')}
return seq
`;

/** Takes the next seq_id (for `nextSeq`). */
const NEXT_LUA = `
${TAKE_SEQ}
return seq
`;

/**
 * Applies a block reserved in the database (ARGV: its first seq_id, its last, the log's TTL). A
 * missing counter (new party, or Redis lost its data) starts just below the block, and the events
 * before it count as trimmed, so a `resume` from before gets `resync` instead of silence. An
 * existing counter keeps counting; the limit only grows.
 */
const SEED_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  local base = tonumber(ARGV[1]) - 1
  redis.call('SET', KEYS[1], base)
  redis.call('SET', KEYS[4], ARGV[2])
  redis.call('SET', KEYS[3], base, 'PX', ARGV[3])
  return 1
end
local limit = redis.call('GET', KEYS[4])
if not limit or tonumber(limit) < tonumber(ARGV[2]) then redis.call('SET', KEYS[4], ARGV[2]) end
return 0
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
  readonly isSingleNode = false;
  private readonly subs = new Map<string, Subscription>();
  /** Party id of each subscribed channel. */
  private readonly channelParties = new Map<string, string>();
  private readonly options: HubOptions;
  private readonly emitScript: ScriptRunner;
  private readonly publishScript: ScriptRunner;
  private readonly nextScript: ScriptRunner;
  private readonly seedScript: ScriptRunner;
  /** Block reservations in flight, one per party. */
  private readonly seeding = new Map<string, Promise<void>>();

  /** Per party, the resumes waiting for a read of its log, and whether one is under way. */
  private readonly resumeReads = new Map<string, ResumeReads>();
  private resumeReadCount = 0;

  constructor(
    private readonly redis: RedisPair,
    private readonly now: () => number,
    private readonly logger: Logger,
    options: Partial<HubOptions> = {},
    private readonly blocks: SeqBlocks,
  ) {
    this.options = { ...DEFAULT_HUB_OPTIONS, ...options };
    const scripts = { fanfarePartyEmit: EMIT_LUA, fanfarePartyPublish: PUBLISH_LUA, fanfarePartyNext: NEXT_LUA, fanfarePartySeed: SEED_LUA };
    for (const [name, lua] of Object.entries(scripts)) redis.commands.defineCommand(name, { numberOfKeys: 4, lua });
    const commands = redis.commands as unknown as Record<string, ScriptRunner>;
    const runner =
      (name: string): ScriptRunner =>
      (...args) =>
        commands[name]!.apply(redis.commands, args);
    this.emitScript = runner('fanfarePartyEmit');
    this.publishScript = runner('fanfarePartyPublish');
    this.nextScript = runner('fanfarePartyNext');
    this.seedScript = runner('fanfarePartySeed');
    redis.subscriber.on('message', (channel: string, message: string) => this.onMessage(channel, message));
    // After a reconnect, fetch from the log what was published while this node was not subscribed.
    redis.subscriber.on('ready', () => this.catchUpAll());
  }

  dependencies(): DependencyCheck[] {
    const ping = (conn: 'commands' | 'subscriber') => async (timeoutMs: number) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          this.redis[conn].ping(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('redis timed out')), timeoutMs);
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    };
    // The subscriber connection is checked by its state: PING is not allowed in subscribe mode on
    // older servers, and it is the connection that must be up for fans to get events.
    return [
      { name: 'redis', probe: ping('commands') },
      {
        name: 'redis_subscriber',
        probe: async () => {
          if (this.redis.subscriber.status !== 'ready') throw new Error(`redis subscriber ${this.redis.subscriber.status}`);
        },
      },
    ];
  }

  /**
   * Runs a script that takes a seq_id; while the party's counter is missing or at its limit,
   * reserves the next block in the database first.
   */
  private async withSeq(run: () => Promise<number>, partyId: string): Promise<number> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const seq = Number(await run());
      if (seq >= 0) return seq;
      await this.reserveBlock(partyId);
    }
    throw new Error(`Could not number an event of party ${partyId}: the seq_id counter keeps running out`);
  }

  private reserveBlock(partyId: string): Promise<void> {
    let pending = this.seeding.get(partyId);
    if (!pending) {
      pending = (async () => {
        const block = await this.blocks.reserve(partyId);
        await this.seedScript(...this.keys(partyId), block.from, block.to, LOG_TTL_MS);
      })().finally(() => this.seeding.delete(partyId));
      this.seeding.set(partyId, pending);
    }
    return pending;
  }

  private key(partyId: string, what: 'seq' | 'log' | 'trimmed' | 'limit'): string {
    return `${this.redis.prefix}party:{${partyId}}:${what}`;
  }

  private channel(partyId: string): string {
    return `${this.redis.prefix}party:{${partyId}}:events`;
  }

  private keys(partyId: string): string[] {
    return [this.key(partyId, 'seq'), this.key(partyId, 'log'), this.key(partyId, 'trimmed'), this.key(partyId, 'limit')];
  }

  async nextSeq(partyId: string): Promise<number> {
    return this.withSeq(() => this.nextScript(...this.keys(partyId)), partyId);
  }

  async head(partyId: string): Promise<number> {
    const seq = await this.redis.commands.get(this.key(partyId, 'seq'));
    if (seq !== null) return Number(seq);
    // No counter (a new party, or Redis lost it): start one above every seq_id handed out before.
    await this.reserveBlock(partyId);
    return Number((await this.redis.commands.get(this.key(partyId, 'seq'))) ?? 0);
  }

  async emit(partyId: string, event: SequencedEventInput, audience?: Audience): Promise<SequencedEvent> {
    const serverTime = this.now();
    const body = JSON.stringify(event).slice(1);
    const seq = await this.withSeq(
      () =>
        this.emitScript(
          ...this.keys(partyId),
          this.channel(partyId),
          String(serverTime),
          body,
          audience ? JSON.stringify(audience) : '',
          this.options.retainEvents,
          LOG_TTL_MS,
        ),
      partyId,
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
        const head = await this.head(partyId);
        // An event published after the subscription but numbered at or below the head is already
        // on its way on the subscriber connection, which the head's answer (on the other
        // connection) may have overtaken. One more round trip on the subscriber connection lets
        // it arrive first, so `start` delivers it in order instead of late, behind the head that
        // a joining socket is told it starts after.
        await this.redis.subscriber.subscribe(this.channel(partyId));
        sequencer.start(head);
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

  /**
   * Resumes that arrive while a read of the party's log is under way wait for the next one, which
   * serves them all: after a node goes away its fans resume on the others within seconds, mostly
   * from the same few seq_ids, and each read returns (and parses) the same tail of the log. A read
   * starts after every resume it serves asked, so it holds everything delivered before they did.
   */
  history(partyId: string, afterSeq: number): Promise<HubHistory> {
    return new Promise((resolve, reject) => {
      let flights = this.resumeReads.get(partyId);
      if (!flights) this.resumeReads.set(partyId, (flights = { running: false, waiting: [] }));
      flights.waiting.push({ afterSeq, resolve, reject });
      if (!flights.running) this.readHistory(partyId, flights);
    });
  }

  /** Reads the party's log once for every resume waiting, then again if more came meanwhile. */
  private readHistory(partyId: string, flights: ResumeReads): void {
    const batch = flights.waiting;
    if (batch.length === 0) {
      this.resumeReads.delete(partyId);
      return;
    }
    flights.waiting = [];
    flights.running = true;
    this.resumeReadCount++;
    const from = batch.reduce((min, w) => Math.min(min, w.afterSeq), Infinity);
    this.readLog(partyId, from)
      .then((read) => {
        for (const w of batch) w.resolve(historyAfter(read, w.afterSeq));
      })
      .catch((err: unknown) => {
        for (const w of batch) w.reject(err);
      })
      .finally(() => {
        flights.running = false;
        this.readHistory(partyId, flights);
      });
  }

  private async readLog(partyId: string, afterSeq: number): Promise<LogRead> {
    // A missing counter is started first (above every earlier seq_id, the rest counted as trimmed).
    if ((await this.redis.commands.exists(this.key(partyId, 'seq'))) === 0) await this.reserveBlock(partyId);
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
    return { events: log.map(parseMessage), trimmed: Number(trimmed ?? 0), head: Number(head ?? 0), logExists: exists === 1 };
  }

  /** Reads of parties' logs made for resumes (for tests: a burst shares them). */
  get resumeReadsMade(): number {
    return this.resumeReadCount;
  }

  async close(): Promise<void> {
    for (const sub of this.subs.values()) sub.sequencer.close();
    this.subs.clear();
    await this.redis.close();
  }

  /** After the subscriber reconnected: each party's events published meanwhile come from the log. */
  private catchUpAll(): void {
    for (const [partyId, sub] of this.subs) {
      void (async () => {
        // Subscribing again resolves once this connection is subscribed (ioredis resubscribed
        // already): from then on messages arrive, and the log holds everything before.
        await this.redis.subscriber.subscribe(this.channel(partyId));
        await sub.ready;
        sub.sequencer.catchUp(await this.head(partyId));
      })().catch((err: unknown) => this.logger.warn({ err, partyId }, 'catching up after a redis reconnect failed'));
    }
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
