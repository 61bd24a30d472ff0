/**
 * The pre-save job on the server's one scheduler: flips territories whose release time passed
 * (after a storefront check), performs the due pre-saves through the provider's API, and sends
 * the receipts. Every item is claimed by a compare-and-set on its due time, which moves it one
 * lease ahead: exactly one node acts, and work a dead node held is due again after the lease.
 */
import type { Campaign, PresaveStepResult } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { parseJson } from '../../platform/db/columns.ts';
import type { CmsPresaveTable } from '../../platform/db/tables/presave.ts';
import type { Job } from '../../platform/jobs.ts';
import { newId } from '../../platform/tokens.ts';
import { ProviderError } from '../../providers/http.ts';
import type { CmsAccountRow } from '../accounts/service.ts';
import { requirePublishedCampaign } from '../editorial/publish.ts';
import { checkTerritory, syncTerritory } from './territories.ts';

/** How long a node holds a pre-save it claimed. */
export const ATTEMPT_LEASE_MS = 2 * 60_000;
/** Attempts before a pre-save is given up as failed. */
export const MAX_ATTEMPTS = 6;
/** Backoff after the n-th failed attempt: 30 s, 1, 2, 4, 8 min, ... (at most an hour). */
export const backoffMs = (attempt: number) => Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
/** How long a node holds a receipt it claimed (a failed send is retried after it). */
export const RECEIPT_LEASE_MS = 5 * 60_000;
/** Refresh a Spotify token that has less than this left. */
const TOKEN_MARGIN_MS = 60_000;
const BATCH = 50;
/** Work of a campaign that is not public now waits this long before the next look. */
const PARKED_MS = 15 * 60_000;

type Step = PresaveStepResult['step'];

/** A step failed in a way a retry may fix (rate limit, provider down) or not (refused for good). */
class StepError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

function classify(err: unknown): StepError {
  if (err instanceof StepError) return err;
  if (err instanceof ProviderError) {
    const retry = err.status === 429 || err.status >= 500;
    return new StepError(`${err.provider} answered ${err.status}`, retry);
  }
  // Network failures and timeouts: try again later.
  return new StepError(err instanceof Error ? err.message.slice(0, 200) : 'failed', true);
}

/** The provider calls of one pre-save, in order, given what the release names. */
function stepsOf(campaign: Campaign, row: CmsPresaveTable): { step: Step; ids: string[] }[] {
  const release = campaign.data.release;
  if (!release) return [];
  const steps: { step: Step; ids: string[] }[] = [];
  if (row.service === 'spotify') {
    const s = release.spotify;
    if (row.save_target === 'album' && s?.album_id) steps.push({ step: 'save_album', ids: [s.album_id] });
    if (row.save_target === 'tracks' && s?.track_ids.length) steps.push({ step: 'save_tracks', ids: s.track_ids });
    if (row.follow_artist && s?.artist_ids.length) steps.push({ step: 'follow_artist', ids: s.artist_ids });
  } else {
    const a = release.apple;
    if (row.save_target === 'album' && a?.album_id) steps.push({ step: 'save_album', ids: [a.album_id] });
    if (row.save_target === 'tracks' && a?.song_ids.length) steps.push({ step: 'save_tracks', ids: a.song_ids });
    if (row.follow_artist) steps.push({ step: 'follow_artist', ids: [] });
  }
  return steps;
}

/** Runs provider calls with the fan's token, refreshing an expired Spotify token (and once more after a 401). */
class FanSession {
  constructor(
    private readonly ctx: ServerContext,
    private account: CmsAccountRow,
  ) {}

  private async refresh(now: number): Promise<void> {
    const refreshToken = this.account.service_refresh_token;
    if (this.account.service !== 'spotify' || !refreshToken) throw new StepError('The streaming token expired and cannot be refreshed', false);
    let t;
    try {
      t = await this.ctx.providers.spotify.refresh(refreshToken);
    } catch (err) {
      const e = classify(err);
      // A refused refresh token means the fan revoked access: no retry helps.
      throw err instanceof ProviderError && err.status === 400 ? new StepError('The fan revoked access', false) : e;
    }
    const values = { service_access_token: t.accessToken, service_refresh_token: t.refreshToken, service_expires_at: t.expiresAt, updated_at: now };
    await this.ctx.db.updateTable('cms_accounts').set(values).where('id', '=', this.account.id).execute();
    this.account = { ...this.account, ...values };
  }

  async call(now: number, run: (token: string) => Promise<void>): Promise<void> {
    const expires = this.account.service_expires_at;
    if (this.account.service === 'spotify' && expires !== null && expires - TOKEN_MARGIN_MS <= now) await this.refresh(now);
    const token = this.account.service_access_token;
    if (!token) throw new StepError('No streaming token stored for the fan', false);
    try {
      await run(token);
    } catch (err) {
      if (!(err instanceof ProviderError) || err.status !== 401 || this.account.service !== 'spotify') throw classify(err);
      await this.refresh(now);
      try {
        await run(this.account.service_access_token!);
      } catch (again) {
        throw classify(again);
      }
    }
  }
}

async function runStep(ctx: ServerContext, session: FanSession, service: string, step: Step, ids: string[], now: number): Promise<PresaveStepResult> {
  if (service === 'apple') {
    if (step === 'follow_artist') return { step, outcome: 'skipped', detail: 'Apple Music has no call to follow an artist' };
    await session.call(now, (token) => ctx.providers.apple.addToLibrary(token, step === 'save_album' ? { albums: ids, songs: [] } : { albums: [], songs: ids }));
    return { step, outcome: 'ok', detail: null };
  }
  const spotify = ctx.providers.spotify;
  await session.call(now, (token) => (step === 'save_album' ? spotify.saveAlbums(token, ids) : step === 'save_tracks' ? spotify.saveTracks(token, ids) : spotify.followArtists(token, ids)));
  return { step, outcome: 'ok', detail: null };
}

/**
 * Performs one due pre-save, if this node wins its claim. Steps done by an earlier attempt are
 * not repeated; a retryable failure plans the next attempt with backoff, a final one fails it.
 */
export async function attemptPresave(ctx: ServerContext, row: CmsPresaveTable, campaign: Campaign, now: number): Promise<void> {
  const claimToken = newId();
  const claim = await ctx.db
    .updateTable('cms_presaves')
    .set((eb) => ({ next_attempt_at: now + ATTEMPT_LEASE_MS, claim_token: claimToken, attempts: eb('attempts', '+', 1), updated_at: now }))
    .where('id', '=', row.id)
    .where('state', '=', 'pending')
    .where('next_attempt_at', '=', row.next_attempt_at)
    .executeTakeFirst();
  if (Number(claim.numUpdatedRows) !== 1) return; // another node has it
  const attempt = row.attempts + 1;
  const previous = parseJson<PresaveStepResult[]>(row.results, []);
  const results: PresaveStepResult[] = [];
  let failure: StepError | null = null;
  const account = await ctx.db.selectFrom('cms_accounts').selectAll().where('id', '=', row.account_id).executeTakeFirst();
  if (!account) failure = new StepError('The fan account is gone', false);
  else {
    const session = new FanSession(ctx, account);
    for (const { step, ids } of stepsOf(campaign, row)) {
      const before = previous.find((r) => r.step === step);
      if (before && before.outcome !== 'failed') {
        results.push(before);
        continue;
      }
      if (failure) {
        results.push(before ?? { step, outcome: 'failed', detail: 'not tried yet' });
        continue;
      }
      try {
        results.push(await runStep(ctx, session, row.service, step, ids, now));
      } catch (err) {
        failure = classify(err);
        results.push({ step, outcome: 'failed', detail: failure.message.slice(0, 500) });
      }
    }
  }
  const giveUp = failure !== null && (!failure.retry || attempt >= MAX_ATTEMPTS);
  const state = failure === null ? 'done' : giveUp ? 'failed' : 'pending';
  const done = ctx.now();
  await ctx.db
    .updateTable('cms_presaves')
    .set({
      state,
      results: JSON.stringify(results),
      last_error: failure?.message.slice(0, 500) ?? null,
      claim_token: null,
      next_attempt_at: state === 'pending' ? done + backoffMs(attempt) : null,
      done_at: state === 'pending' ? null : done,
      // The receipt goes out right after the saves (the scheduler picks it up in this run).
      receipt_next_at: state === 'done' && row.email ? done : null,
      updated_at: done,
    })
    .where('id', '=', row.id)
    .where('claim_token', '=', claimToken)
    .execute();
}

/** Sends one due receipt, if this node wins its claim. */
export async function sendReceipt(ctx: ServerContext, row: CmsPresaveTable, campaign: Campaign | null, now: number): Promise<void> {
  const claimedUntil = now + RECEIPT_LEASE_MS;
  const claim = await ctx.db
    .updateTable('cms_presaves')
    .set({ receipt_next_at: claimedUntil })
    .where('id', '=', row.id)
    .where('receipt_sent_at', 'is', null)
    .where('receipt_next_at', '=', row.receipt_next_at)
    .executeTakeFirst();
  if (Number(claim.numUpdatedRows) !== 1 || !row.email) return;
  try {
    await ctx.mailer.send(receiptMail(row, campaign?.name ?? 'the release'));
  } catch (err) {
    ctx.logger.warn({ err, presaveId: row.id }, 'pre-save receipt e-mail failed; trying again after the lease');
    return;
  }
  await ctx.db.updateTable('cms_presaves').set({ receipt_sent_at: ctx.now(), receipt_next_at: null }).where('id', '=', row.id).where('receipt_next_at', '=', claimedUntil).execute();
}

function receiptMail(row: CmsPresaveTable, name: string) {
  const results = parseJson<PresaveStepResult[]>(row.results, []);
  const service = row.service === 'apple' ? 'Apple Music' : 'Spotify';
  if (row.locale.startsWith('de')) {
    const what = results.filter((r) => r.outcome === 'ok').map((r) => (r.step === 'save_album' ? 'Album gespeichert' : r.step === 'save_tracks' ? 'Songs gespeichert' : 'Künstler:in gefolgt'));
    return {
      to: row.email!,
      subject: `„${name}“ ist jetzt in deiner ${service}-Bibliothek`,
      text: `Hallo,\n\n„${name}“ ist erschienen, und dein Pre-Save wurde ausgeführt: ${what.join(', ')}.\n\nViel Spaß beim Hören!\n`,
    };
  }
  const what = results.filter((r) => r.outcome === 'ok').map((r) => (r.step === 'save_album' ? 'album saved' : r.step === 'save_tracks' ? 'tracks saved' : 'artist followed'));
  return {
    to: row.email!,
    subject: `"${name}" is now in your ${service} library`,
    text: `Hello,\n\n"${name}" is out, and your pre-save ran: ${what.join(', ')}.\n\nEnjoy listening!\n`,
  };
}

/** The published campaigns a run needs, read once per run. */
function campaignCache(ctx: ServerContext) {
  const cache = new Map<string, Promise<Campaign | null>>();
  return (id: string) => {
    let c = cache.get(id);
    if (!c) cache.set(id, (c = requirePublishedCampaign(ctx, id).catch(() => null)));
    return c;
  };
}

/** The pre-save job of the server's scheduler (`server.ts`). */
export function presaveJob(ctx: ServerContext): Job {
  // What each campaign's territories were last planned from on this node: a published change re-plans them.
  const plannedFrom = new Map<string, number | null>();
  const replan = async () => {
    const open = await ctx.db
      .selectFrom('cms_release_territories')
      .innerJoin('cms_campaigns', 'cms_campaigns.id', 'cms_release_territories.campaign_id')
      .select(['cms_campaigns.id', 'cms_campaigns.published_version'])
      .where('cms_release_territories.state', '!=', 'released')
      .distinct()
      .execute();
    for (const c of open) {
      if (plannedFrom.get(c.id) === c.published_version) continue;
      const campaign = await requirePublishedCampaign(ctx, c.id).catch(() => null);
      if (campaign) {
        const rows = await ctx.db.selectFrom('cms_release_territories').select('country').where('campaign_id', '=', c.id).where('state', '!=', 'released').execute();
        for (const r of rows) await syncTerritory(ctx, campaign, r.country);
      }
      plannedFrom.set(c.id, c.published_version);
    }
  };
  return {
    name: 'presave',
    readsTables: ['cms_release_territories', 'cms_presaves', 'cms_campaigns'],
    async nextDue() {
      const t = await ctx.db.selectFrom('cms_release_territories').select((eb) => eb.fn.min('next_check_at').as('t')).where('state', '!=', 'released').executeTakeFirst();
      const p = await ctx.db.selectFrom('cms_presaves').select((eb) => eb.fn.min('next_attempt_at').as('t')).where('state', '=', 'pending').executeTakeFirst();
      const r = await ctx.db.selectFrom('cms_presaves').select((eb) => eb.fn.min('receipt_next_at').as('t')).where('receipt_sent_at', 'is', null).executeTakeFirst();
      const times = [t?.t, p?.t, r?.t].filter((v): v is number => v !== null && v !== undefined).map(Number);
      return times.length ? Math.min(...times) : null;
    },
    async runDue(now) {
      const campaignOf = campaignCache(ctx);
      await replan();
      const territories = await ctx.db
        .selectFrom('cms_release_territories')
        .selectAll()
        .where('state', '!=', 'released')
        .where('next_check_at', '<=', now)
        .orderBy('next_check_at')
        .limit(BATCH)
        .execute();
      for (const row of territories) {
        const campaign = await campaignOf(row.campaign_id);
        if (campaign?.data.release) await checkTerritory(ctx, campaign, row, now);
        // Unpublished, or its release removed: look again later rather than at every sweep.
        else await ctx.db.updateTable('cms_release_territories').set({ next_check_at: now + PARKED_MS }).where('campaign_id', '=', row.campaign_id).where('country', '=', row.country).where('next_check_at', '=', row.next_check_at).execute();
      }
      const due = await ctx.db.selectFrom('cms_presaves').selectAll().where('state', '=', 'pending').where('next_attempt_at', '<=', now).orderBy('next_attempt_at').limit(BATCH).execute();
      for (const row of due) {
        const campaign = await campaignOf(row.campaign_id);
        if (campaign) await attemptPresave(ctx, row, campaign, now);
        else await ctx.db.updateTable('cms_presaves').set({ next_attempt_at: now + PARKED_MS }).where('id', '=', row.id).where('state', '=', 'pending').where('next_attempt_at', '=', row.next_attempt_at).execute();
      }
      const receipts = await ctx.db
        .selectFrom('cms_presaves')
        .selectAll()
        .where('receipt_sent_at', 'is', null)
        .where('receipt_next_at', '<=', ctx.now())
        .orderBy('receipt_next_at')
        .limit(BATCH)
        .execute();
      for (const row of receipts) await sendReceipt(ctx, row, await campaignOf(row.campaign_id), ctx.now());
    },
  };
}
