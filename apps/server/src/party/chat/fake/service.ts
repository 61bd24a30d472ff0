import { createHash } from 'node:crypto';
import type { FakeChatBody } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import { newId } from '../../../platform/tokens.ts';
import type { Fan } from '../../auth/sessions.ts';
import { requireParty } from '../../parties/queries.ts';
import { anonymousFanRow } from '../../users/fans.ts';
import { partyStickers, postChatMessage } from '../messages/service.ts';

/** Fake fans per party: a small pool, created once, that posts in turn. */
export const FAKE_FAN_POOL_SIZE = 20;
/** How often a generator wakes to post what is due. */
const TICK_MS = 20;
/** How often a generator checks that its run is still the party's current one (another node may stop it). */
const CHECK_MS = 1000;
/** Posts in flight at once per generator; beyond it, due posts wait (and are dropped past one second's worth). */
const MAX_IN_FLIGHT = 32;

const LINES = [
  'This track is amazing!',
  'Hello from the front row',
  'Who else is listening on headphones?',
  'That bassline though',
  'Best album of the year',
  'Turn it up!',
  'Goosebumps every time',
  'Greetings from Berlin',
  'Can we hear this one again?',
  'The production on this is unreal',
];

/** Counters of a generator run (for logs and tests). */
export interface FakeStats {
  posted: number;
  failed: number;
  dropped: number;
}

/**
 * Fake chat traffic (`POST .../chat/fake`): fake fans post real messages through the same service
 * path as fans (`postChatMessage`) at `messages_per_second` until `stop_after` seconds passed or
 * `DELETE .../chat/fake`. It is the load generator of the fan-out benchmark. The current run of a
 * party is a database row, so a stop that reaches another node still ends it within CHECK_MS.
 */
export class FakeTraffic {
  private readonly runners = new Map<string, FakeRunner>();

  constructor(private readonly ctx: ServerContext) {}

  /** Starts (or restarts with the new rate) the party's fake traffic. */
  async start(partyId: string, body: FakeChatBody): Promise<void> {
    const party = await requireParty(this.ctx.db, partyId);
    const fans = await ensureFakeFans(this.ctx, partyId);
    const now = this.ctx.now();
    const row = { run_id: newId(), messages_per_second: body.messages_per_second, stops_at: now + body.stop_after * 1000, created_at: now };
    await this.ctx.db
      .insertInto('chat_fake_traffic')
      .values({ party_id: partyId, ...row })
      .onConflict((oc) => oc.column('party_id').doUpdateSet(row))
      .execute();
    await this.runners.get(partyId)?.stop();
    const runner = new FakeRunner(this.ctx, partyId, row.run_id, body.messages_per_second, row.stops_at, fans, partyStickers(party), () => {
      if (this.runners.get(partyId) === runner) this.runners.delete(partyId);
    });
    this.runners.set(partyId, runner);
    runner.start();
  }

  /** Stops the party's fake traffic on every node; false when none was running. */
  async stop(partyId: string): Promise<boolean> {
    await requireParty(this.ctx.db, partyId);
    const res = await this.ctx.db.deleteFrom('chat_fake_traffic').where('party_id', '=', partyId).executeTakeFirst();
    const local = this.runners.get(partyId);
    await local?.stop();
    return Number(res.numDeletedRows) > 0 || local !== undefined;
  }

  /** Counters of the run on this node, if any. */
  stats(partyId: string): FakeStats | null {
    return this.runners.get(partyId)?.stats ?? null;
  }

  isRunning(partyId: string): boolean {
    return this.runners.has(partyId);
  }

  async close(): Promise<void> {
    await Promise.all([...this.runners.values()].map((r) => r.stop()));
    this.runners.clear();
  }
}

class FakeRunner {
  readonly stats: FakeStats = { posted: 0, failed: 0, dropped: 0 };
  private timer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private due = 0;
  private startedAt = 0;
  private lastCheck = 0;
  private checking = false;
  private stopped = false;
  private turn = 0;

  constructor(
    private readonly ctx: ServerContext,
    private readonly partyId: string,
    private readonly runId: string,
    private readonly perSecond: number,
    private readonly stopsAt: number,
    private readonly fans: Fan[],
    private readonly stickers: readonly string[],
    private readonly onEnd: () => void,
  ) {}

  start(): void {
    this.startedAt = Date.now();
    this.lastCheck = this.startedAt;
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
      this.onEnd();
      this.ctx.logger.info({ partyId: this.partyId, ...this.stats }, 'fake chat traffic stopped');
    }
    await Promise.all([...this.inFlight]);
  }

  private tick(): void {
    if (this.stopped) return;
    const now = Date.now();
    if (this.ctx.now() >= this.stopsAt) {
      void this.finish();
      return;
    }
    if (now - this.lastCheck >= CHECK_MS && !this.checking) {
      this.lastCheck = now;
      void this.checkStillCurrent();
    }
    const target = Math.floor(((now - this.startedAt) / 1000) * this.perSecond);
    // Never build up more than a second's backlog: a slow database sheds load instead of bursting.
    const backlogCap = Math.max(MAX_IN_FLIGHT, Math.ceil(this.perSecond));
    if (target - this.due > backlogCap) {
      this.stats.dropped += target - this.due - backlogCap;
      this.due = target - backlogCap;
    }
    while (this.due < target && this.inFlight.size < MAX_IN_FLIGHT) {
      this.due++;
      this.postOne();
    }
  }

  private postOne(): void {
    const fan = this.fans[this.turn++ % this.fans.length]!;
    const useSticker = this.stickers.length > 0 && this.turn % 5 === 0;
    const body = useSticker
      ? { sticker: this.stickers[this.turn % this.stickers.length]! }
      : { text: `${LINES[this.turn % LINES.length]!} #${this.turn}` };
    const run: Promise<void> = postChatMessage(this.ctx, this.partyId, fan, body, { exemptFromRateLimit: true })
      .then(() => {
        this.stats.posted++;
      })
      .catch((err: unknown) => {
        this.stats.failed++;
        if (this.stats.failed <= 3) this.ctx.logger.warn({ err, partyId: this.partyId }, 'fake chat message failed');
      })
      .finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  private async checkStillCurrent(): Promise<void> {
    this.checking = true;
    try {
      const row = await this.ctx.db.selectFrom('chat_fake_traffic').select('run_id').where('party_id', '=', this.partyId).executeTakeFirst();
      if (row?.run_id !== this.runId) await this.stop();
    } catch (err) {
      this.ctx.logger.warn({ err, partyId: this.partyId }, 'fake chat traffic check failed');
    } finally {
      this.checking = false;
    }
  }

  private async finish(): Promise<void> {
    await this.stop();
    await this.ctx.db
      .deleteFrom('chat_fake_traffic')
      .where('party_id', '=', this.partyId)
      .where('run_id', '=', this.runId)
      .execute()
      .catch((err: unknown) => this.ctx.logger.warn({ err }, 'fake chat traffic cleanup failed'));
  }
}

/**
 * The party's fake fans: anonymous fans signed up for the party, created on first use with
 * deterministic ids so every later run (on any node) reuses them.
 */
export async function ensureFakeFans(ctx: ServerContext, partyId: string): Promise<Fan[]> {
  const tag = createHash('sha256').update(partyId).digest('base64url').slice(0, 10);
  const now = ctx.now();
  const fans: Fan[] = [];
  for (let i = 1; i <= FAKE_FAN_POOL_SIZE; i++) {
    const id = `fake-${tag}-${i}`;
    const fan = anonymousFanRow(id, `Fake fan ${i}`, now);
    await ctx.db.insertInto('fans').values(fan).onConflict((oc) => oc.column('id').doNothing()).execute();
    const exists = await ctx.db.selectFrom('party_users').select('fan_id').where('party_id', '=', partyId).where('fan_id', '=', id).executeTakeFirst();
    if (!exists) await signUpFakeFan(ctx, partyId, id, i, now);
    fans.push(fan);
  }
  return fans;
}

async function signUpFakeFan(ctx: ServerContext, partyId: string, fanId: string, i: number, now: number): Promise<void> {
  // A real fan may already use the plain name: then the fake fan takes a suffixed one.
  for (const name of [`Fake fan ${i}`, `Fake fan ${i} (${fanId.slice(5, 10)})`, `Fake fan ${newId().slice(0, 8)}`]) {
    try {
      await ctx.db
        .insertInto('party_users')
        .values({
          party_id: partyId,
          fan_id: fanId,
          real_name: name,
          display_name: name,
          email: null,
          country: null,
          profile_picture: null,
          profile_sticker: null,
          competition_accepted: 0,
          can_chat: 1,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['party_id', 'fan_id']).doNothing())
        .execute();
      return;
    } catch (e) {
      if (!/unique|duplicate/i.test(String(e))) throw e;
    }
  }
}
