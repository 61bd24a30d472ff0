/**
 * Fans' data rights (GDPR art. 15 access, art. 17 erasure, art. 20 portability) across both
 * domains: what a party fan or a campaign visitor has stored, and erasing it. The fan's own calls
 * (`GET /api/users/me/data`, `DELETE /api/users/me`) and the back office's (by e-mail, under
 * `dataRights.manage`) share these functions; every action is written to `data_rights_audit`
 * (`audit.ts`). What erasure keeps, and why, is in docs/SECURITY.md.
 */
import { createHash } from 'node:crypto';
import { sql, type ExpressionBuilder } from 'kysely';
import type { DataSubjectExport, ErasureReport, FanDataExport, VisitorData } from '@fanfare/protocol';
import type { ServerContext } from '../context.ts';
import { parseJson, toBool } from '../platform/db/columns.ts';
import type { Db } from '../platform/db/database.ts';
import type { Database, FanTable } from '../platform/db/schema.ts';
import { newId } from '../platform/tokens.ts';
import { queueUnstored } from '../party/chat/messages/publish.ts';
import { runPartyWrite } from '../realtime/unitOfWork.ts';
import { markReplayStale } from '../party/replay/service.ts';

/** Normalized address: e-mail look-ups ignore case and surrounding blanks. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * What an erased consent keeps instead of the address: its SHA-256. The label can still show that
 * an address someone names had consented (hash it and compare), without holding a list of addresses.
 */
export const erasedEmail = (email: string) => `sha256:${createHash('sha256').update(normalizeEmail(email)).digest('hex')}`;

/** Matches no row (a boolean bound value is not portable: SQLite binds no booleans). */
const NOTHING = sql<boolean>`1 = 0`;

/** Case-insensitive match of an e-mail column against normalized addresses. */
function emailIn<T extends 'cms_newsletter_subscribers' | 'cms_newsletter_consents' | 'cms_newsletter_confirmations' | 'cms_accounts' | 'cms_presaves'>(table: T, emails: string[]) {
  return (eb: ExpressionBuilder<Database, T>) =>
    emails.length === 0 ? NOTHING : eb(eb.fn<string>('lower', [eb.ref(`${table}.email` as never)]), 'in', emails);
}

// ---------------------------------------------------------------------------------------------
// Access and portability
// ---------------------------------------------------------------------------------------------

/** Everything stored about one party fan, in every party and campaign. */
export async function exportFan(ctx: ServerContext, fan: FanTable): Promise<FanDataExport> {
  const db = ctx.db;
  const signups = await db
    .selectFrom('party_users')
    .innerJoin('parties', 'parties.id', 'party_users.party_id')
    .selectAll('party_users')
    .select('parties.name as party_name')
    .where('party_users.fan_id', '=', fan.id)
    .orderBy('party_users.created_at')
    .execute();
  const accountGrants = fan.service && fan.service_user_id
    ? await db.selectFrom('grants').selectAll().where('service', '=', fan.service).where('service_id', '=', fan.service_user_id).orderBy('created_at').execute()
    : [];
  const linkGrants = await db
    .selectFrom('grant_redemptions')
    .innerJoin('grants', 'grants.id', 'grant_redemptions.grant_id')
    .select(['grants.party_id', 'grants.role', 'grants.display_name', 'grants.profile_picture', 'grant_redemptions.created_at'])
    .where('grant_redemptions.fan_id', '=', fan.id)
    .orderBy('grant_redemptions.created_at')
    .execute();
  const messages = await db
    .selectFrom('chat_messages')
    .select(['id', 'party_id', 'timestamp_ms', 'sender_display_name', 'text', 'sticker', 'photo', 'video', 'reply_to_message_id'])
    .where('sender_id', '=', fan.id)
    .orderBy('timestamp_ms')
    .orderBy('id')
    .execute();
  const votes = await db.selectFrom('track_votes').select(['party_id', 'track_id', 'created_at']).where('fan_id', '=', fan.id).orderBy('created_at').execute();
  const answers = await db
    .selectFrom('chat_answers')
    .innerJoin('chat_questions', 'chat_questions.id', 'chat_answers.question_id')
    .select(['chat_answers.party_id', 'chat_answers.question_id', 'chat_answers.kind', 'chat_questions.question', 'chat_answers.answer_id', 'chat_answers.is_correct', 'chat_answers.created_at'])
    .where('chat_answers.fan_id', '=', fan.id)
    .orderBy('chat_answers.created_at')
    .execute();
  const uploads = await db.selectFrom('party_uploads').selectAll().where('fan_id', '=', fan.id).orderBy('storage_key').execute();
  const emails = fanEmails(fan, signups);
  return {
    exported_at: ctx.now(),
    profile: {
      id: fan.id,
      service: fan.service,
      service_user_id: fan.service_user_id,
      display_name: fan.display_name,
      email: fan.email,
      country: fan.country,
      premium: toBool(fan.premium),
      profile_picture: fan.profile_picture,
      has_service_tokens: fan.service_access_token !== null || fan.service_refresh_token !== null,
      created_at: fan.created_at,
      updated_at: fan.updated_at,
    },
    party_signups: signups.map((s) => ({
      party_id: s.party_id,
      party_name: s.party_name,
      real_name: s.real_name,
      display_name: s.display_name,
      email: s.email,
      country: s.country,
      profile_picture: s.profile_picture,
      profile_sticker: s.profile_sticker,
      competition_accepted: toBool(s.competition_accepted),
      can_chat: toBool(s.can_chat),
      created_at: s.created_at,
    })),
    grants: [
      ...accountGrants.map((g) => ({ party_id: g.party_id, role: g.role, display_name: g.display_name, profile_picture: g.profile_picture, via: 'account' as const, created_at: g.created_at })),
      ...linkGrants.map((g) => ({ party_id: g.party_id, role: g.role, display_name: g.display_name, profile_picture: g.profile_picture, via: 'link' as const, created_at: g.created_at })),
    ],
    chat_messages: messages.map((m) => ({
      id: m.id,
      party_id: m.party_id,
      timestamp_ms: m.timestamp_ms,
      display_name: m.sender_display_name,
      text: m.text,
      sticker: m.sticker,
      photo: m.photo,
      video: m.video,
      reply_to_message_id: m.reply_to_message_id,
    })),
    track_votes: votes,
    answers: answers.map((a) => ({ ...a, answer_id: Number(a.answer_id), is_correct: toBool(a.is_correct) })),
    uploads: uploads.map((u) => ({ party_id: u.party_id, url: `${ctx.config.publicUrl}/uploads/${u.storage_key}`, size: Number(u.size), created_at: u.created_at })),
    campaigns: await exportVisitor(db, emails, fan.service && fan.service_user_id ? { service: fan.service, serviceUserId: fan.service_user_id } : null),
  };
}

/** The fan's addresses: the system profile's and every signup's, normalized. */
function fanEmails(fan: Pick<FanTable, 'email'>, signups: { email: string | null }[]): string[] {
  return [...new Set([fan.email, ...signups.map((s) => s.email)].filter((e): e is string => !!e).map(normalizeEmail))];
}

/** What campaign pages stored under these addresses (and, for a fan, their streaming account). */
export async function exportVisitor(db: Db, emails: string[], account: { service: string; serviceUserId: string } | null): Promise<VisitorData> {
  const subscriptions = await db.selectFrom('cms_newsletter_subscribers').selectAll().where(emailIn('cms_newsletter_subscribers', emails)).orderBy('created_at').orderBy('id').execute();
  const consents = await db.selectFrom('cms_newsletter_consents').selectAll().where(emailIn('cms_newsletter_consents', emails)).orderBy('created_at').orderBy('id').execute();
  const accounts = await campaignAccounts(db, emails, account);
  const sessions = accounts.length
    ? await db
        .selectFrom('cms_account_sessions')
        .select(['account_id', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('account_id', 'in', accounts.map((a) => a.id))
        .groupBy('account_id')
        .execute()
    : [];
  const presaves = await presavesOf(db, emails, accounts.map((a) => a.id))
    .innerJoin('cms_campaigns', 'cms_campaigns.id', 'cms_presaves.campaign_id')
    .selectAll('cms_presaves')
    .select('cms_campaigns.name as campaign_name')
    .orderBy('cms_presaves.created_at')
    .orderBy('cms_presaves.id')
    .execute();
  return {
    newsletter_subscriptions: subscriptions.map((s) => ({
      newsletter_id: s.newsletter_id,
      campaign_id: s.campaign_id,
      email: s.email,
      name: s.name,
      country: s.country,
      locale: s.locale,
      state: s.state,
      created_at: s.created_at,
      confirmed_at: s.confirmed_at,
    })),
    newsletter_consents: consents.map((c) => ({
      newsletter_id: c.newsletter_id,
      campaign_id: c.campaign_id,
      email: c.email,
      accepted: toBool(c.accepted),
      consent_text_version: c.consent_text_version,
      consent_text: c.consent_text,
      locale: c.locale,
      source_page: c.source_page,
      ip: c.ip,
      user_agent: c.user_agent,
      created_at: c.created_at,
      confirmed_at: c.confirmed_at,
      withdrawn_at: c.withdrawn_at,
    })),
    campaign_accounts: accounts.map((a) => ({
      id: a.id,
      service: a.service,
      service_user_id: a.service_user_id,
      email: a.email,
      has_service_tokens: a.service_access_token !== null || a.service_refresh_token !== null,
      created_at: a.created_at,
      updated_at: a.updated_at,
      sessions: Number(sessions.find((s) => s.account_id === a.id)?.n ?? 0),
    })),
    presaves: presaves.map((p) => ({
      campaign_id: p.campaign_id,
      campaign_name: p.campaign_name,
      service: p.service,
      territory: p.territory,
      save: p.save_target,
      follow_artist: toBool(p.follow_artist),
      state: p.state,
      consent_text: p.consent_text,
      consent_text_version: p.consent_text_version,
      locale: p.locale,
      source_page: p.source_page,
      ip: p.ip,
      user_agent: p.user_agent,
      email: p.email,
      results: parseJson<{ step: string; outcome: string; detail: string | null }[]>(p.results, []),
      created_at: Number(p.created_at),
      done_at: p.done_at === null ? null : Number(p.done_at),
      receipt_sent_at: p.receipt_sent_at === null ? null : Number(p.receipt_sent_at),
    })),
  };
}

/** Pre-saves of these campaign accounts, or whose receipt goes to one of these addresses. */
function presavesOf(db: Db, emails: string[], accountIds: string[]) {
  return db
    .selectFrom('cms_presaves')
    .where((eb) => eb.or([emailIn('cms_presaves', emails)(eb), accountIds.length ? eb('cms_presaves.account_id', 'in', accountIds) : NOTHING]));
}

async function campaignAccounts(db: Db, emails: string[], account: { service: string; serviceUserId: string } | null) {
  return db
    .selectFrom('cms_accounts')
    .selectAll()
    .where((eb) =>
      eb.or([
        emailIn('cms_accounts', emails)(eb),
        account ? eb.and([eb('service', '=', account.service), eb('service_user_id', '=', account.serviceUserId)]) : NOTHING,
      ]),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Fans whose system profile or any signup carries the address. */
async function fansByEmail(db: Db, email: string): Promise<FanTable[]> {
  const wanted = normalizeEmail(email);
  return db
    .selectFrom('fans')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb(eb.fn<string>('lower', [eb.ref('fans.email')]), '=', wanted),
        eb('fans.id', 'in', eb.selectFrom('party_users').select('fan_id').where((pu) => pu(pu.fn<string>('lower', [pu.ref('party_users.email')]), '=', wanted))),
      ]),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The back office's look-up: every fan with the address, and the campaign visitor. */
export async function exportByEmail(ctx: ServerContext, email: string): Promise<DataSubjectExport> {
  const fans = await fansByEmail(ctx.db, email);
  return {
    exported_at: ctx.now(),
    email: normalizeEmail(email),
    fans: await Promise.all(fans.map((f) => exportFan(ctx, f))),
    visitor: await exportVisitor(ctx.db, [normalizeEmail(email)], null),
  };
}

// ---------------------------------------------------------------------------------------------
// Erasure
// ---------------------------------------------------------------------------------------------

const emptyReport = (now: number): ErasureReport => ({
  erased_at: now,
  fans_erased: 0,
  chat_messages_removed: 0,
  uploads_deleted: 0,
  party_signups_removed: 0,
  consents_withdrawn: 0,
  newsletter_subscriptions_removed: 0,
  campaign_accounts_removed: 0,
  presaves_removed: 0,
});

function addReports(a: ErasureReport, b: ErasureReport): ErasureReport {
  const sum = { ...a };
  for (const k of Object.keys(b) as (keyof ErasureReport)[]) if (k !== 'erased_at') sum[k] += b[k];
  return sum;
}

/** Messages deleted per party statement: each becomes one deletion event fans receive. */
const MESSAGE_BATCH = 200;

/**
 * Erases a fan: their messages leave every party (each deletion is published through the unit of
 * work, so open pages drop them), their uploads leave storage, grants naming their streaming
 * account go, their newsletter consents are withdrawn (`eraseVisitor`), and the fan row goes with
 * everything that cascades from it (tokens, signups, votes, answers, redemptions).
 */
export async function eraseFan(ctx: ServerContext, fan: FanTable): Promise<ErasureReport> {
  const report = emptyReport(ctx.now());
  const signups = await ctx.db.selectFrom('party_users').select(['party_id', 'email']).where('fan_id', '=', fan.id).execute();
  const emails = fanEmails(fan, signups);
  // Messages first, party by party, in batches: one unit of work per batch deletes the rows and
  // announces each deletion as the spec's `delete_message_id` message.
  for (;;) {
    const batch = await ctx.db.selectFrom('chat_messages').select(['id', 'party_id']).where('sender_id', '=', fan.id).orderBy('party_id').limit(MESSAGE_BATCH).execute();
    if (batch.length === 0) break;
    const partyId = batch[0]!.party_id;
    const ids = batch.filter((m) => m.party_id === partyId).map((m) => m.id);
    await runPartyWrite(ctx, async (w) => {
      const deleted = await w.db.deleteFrom('chat_messages').where('party_id', '=', partyId).where('id', 'in', ids).where('sender_id', '=', fan.id).execute();
      report.chat_messages_removed += Number(deleted[0]?.numDeletedRows ?? 0);
      // Their messages leave the party's replay too (issue 47).
      await markReplayStale(w.db, partyId);
      for (const id of ids) queueUnstored(w, ctx, partyId, { id: newId(), type: 'message', sender: null, delete_message_id: id });
    });
  }
  const uploads = await ctx.db.selectFrom('party_uploads').select('storage_key').where('fan_id', '=', fan.id).execute();
  for (const u of uploads) {
    await ctx.storage.delete(u.storage_key);
    await ctx.db.deleteFrom('party_uploads').where('storage_key', '=', u.storage_key).execute();
    report.uploads_deleted++;
  }
  report.party_signups_removed = signups.length;
  await ctx.db.transaction().execute(async (trx) => {
    if (fan.service && fan.service_user_id) {
      await trx.deleteFrom('grants').where('service', '=', fan.service).where('service_id', '=', fan.service_user_id).execute();
    }
    // Cascades: access tokens, party signups, grant redemptions, track votes, quiz and poll answers.
    await trx.deleteFrom('fans').where('id', '=', fan.id).execute();
  });
  report.fans_erased = 1;
  const visitor = await eraseVisitor(ctx, emails, fan.service && fan.service_user_id ? { service: fan.service, serviceUserId: fan.service_user_id } : null);
  return addReports(report, visitor);
}

/**
 * Erases a campaign visitor: newsletter signups never confirmed go entirely (no consent to prove);
 * confirmed ones are withdrawn and keep only the minimal proof (hashed address, newsletter,
 * campaign, consent text and version, locale, page, times); their campaign accounts and sessions
 * go, and open confirmation links die.
 */
export async function eraseVisitor(ctx: ServerContext, emails: string[], account: { service: string; serviceUserId: string } | null): Promise<ErasureReport> {
  const report = emptyReport(ctx.now());
  const now = ctx.now();
  const accounts = await campaignAccounts(ctx.db, emails, account);
  await ctx.db.transaction().execute(async (trx) => {
    // Pre-saves go with their consent wording: a waiting one is never performed, and nothing
    // is kept as proof (the provider's library is the fan's own, where they can undo the saves).
    const presaves = await presavesOf(trx, emails, accounts.map((a) => a.id)).select('cms_presaves.id').execute();
    if (presaves.length) {
      await trx.deleteFrom('cms_presaves').where('id', 'in', presaves.map((p) => p.id)).execute();
      report.presaves_removed = presaves.length;
    }
    if (accounts.length) {
      // Cascades: account sessions and their refresh tokens.
      await trx.deleteFrom('cms_accounts').where('id', 'in', accounts.map((a) => a.id)).execute();
      report.campaign_accounts_removed = accounts.length;
    }
    if (emails.length === 0) return;
    await trx.deleteFrom('cms_newsletter_confirmations').where(emailIn('cms_newsletter_confirmations', emails)).execute();
    const subscribers = await trx.selectFrom('cms_newsletter_subscribers').select(['id', 'email', 'state']).where(emailIn('cms_newsletter_subscribers', emails)).execute();
    for (const s of subscribers) {
      if (s.state !== 'confirmed') {
        // Never confirmed: no consent to prove. Its consents cascade.
        await trx.deleteFrom('cms_newsletter_subscribers').where('id', '=', s.id).execute();
        report.newsletter_subscriptions_removed++;
        continue;
      }
      const hashed = erasedEmail(s.email);
      await trx.updateTable('cms_newsletter_subscribers').set({ email: hashed, name: null, country: null, state: 'withdrawn', updated_at: now }).where('id', '=', s.id).execute();
      const withdrawn = await trx
        .updateTable('cms_newsletter_consents')
        .set({ email: hashed, ip: '', user_agent: null, withdrawn_at: now })
        .where('subscriber_id', '=', s.id)
        .where('withdrawn_at', 'is', null)
        .execute();
      report.consents_withdrawn += Number(withdrawn[0]?.numUpdatedRows ?? 0);
    }
  });
  return report;
}

/** Erases every fan with the address and the campaign visitor (back office). */
export async function eraseByEmail(ctx: ServerContext, email: string): Promise<ErasureReport> {
  let report = emptyReport(ctx.now());
  for (const fan of await fansByEmail(ctx.db, email)) report = addReports(report, await eraseFan(ctx, fan));
  return addReports(report, await eraseVisitor(ctx, [normalizeEmail(email)], null));
}
