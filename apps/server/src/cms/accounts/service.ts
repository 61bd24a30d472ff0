import type { AccountTokenInfo, CampaignAccount, CampaignService } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { CmsAccountTable } from '../../platform/db/tables/cms.ts';
import { unauthorized } from '../../platform/errors.ts';
import { hashToken, newId, newToken } from '../../platform/tokens.ts';
import type { ProviderProfile, ProviderTokens } from '../../providers/providers.ts';
import { isUniqueViolation } from '../shared.ts';

export type CmsAccountRow = CmsAccountTable;

// Refresh the provider's token when it has less than this left.
const SERVICE_REFRESH_MARGIN_MS = 5 * 60_000;

/** Finds or creates the campaign account of a streaming account and stores its provider tokens. */
export async function upsertAccount(
  ctx: ServerContext,
  service: CampaignService,
  profile: Pick<ProviderProfile, 'id' | 'email'>,
  tokens: Pick<ProviderTokens, 'accessToken' | 'refreshToken'> & { expiresAt: number | null },
): Promise<CmsAccountRow> {
  const now = ctx.now();
  const values = {
    email: profile.email,
    service_access_token: tokens.accessToken,
    service_refresh_token: tokens.refreshToken,
    service_expires_at: tokens.expiresAt,
    updated_at: now,
  };
  const existing = await ctx.db.selectFrom('cms_accounts').selectAll().where('service', '=', service).where('service_user_id', '=', profile.id).executeTakeFirst();
  if (existing) {
    const refresh = tokens.refreshToken ?? existing.service_refresh_token;
    await ctx.db.updateTable('cms_accounts').set({ ...values, service_refresh_token: refresh }).where('id', '=', existing.id).execute();
    return { ...existing, ...values, service_refresh_token: refresh };
  }
  const row: CmsAccountRow = { id: newId(), service, service_user_id: profile.id, created_at: now, ...values };
  try {
    await ctx.db.insertInto('cms_accounts').values(row).execute();
  } catch (e) {
    // The same account logged in twice at once: take the other request's row.
    if (isUniqueViolation(e)) return upsertAccount(ctx, service, profile, tokens);
    throw e;
  }
  return row;
}

/** Opens a session for an account on a campaign: a short-lived access token and a refresh token. */
export async function openAccountSession(ctx: ServerContext, account: CmsAccountRow, campaignId: string): Promise<AccountTokenInfo> {
  const now = ctx.now();
  const access = newToken();
  const refresh = newToken();
  const sessionId = newId();
  const expiresAt = now + ctx.config.cms.accountRefreshTtlMs;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('cms_account_sessions')
      .values({
        id: sessionId,
        account_id: account.id,
        campaign_id: campaignId,
        access_token_hash: hashToken(access),
        access_expires_at: now + ctx.config.cms.accountAccessTtlMs,
        created_at: now,
        expires_at: expiresAt,
        revoked_at: null,
      })
      .execute();
    await trx.insertInto('cms_account_refresh_tokens').values({ token_hash: hashToken(refresh), session_id: sessionId, created_at: now, used_at: null }).execute();
  });
  return tokenInfo(account, access, refresh, expiresAt);
}

function tokenInfo(account: CmsAccountRow, access: string, refresh: string, sessionExpiresAt: number): AccountTokenInfo {
  return {
    access_token: access,
    refresh_token: refresh,
    service_token: account.service_access_token ?? '',
    // Apple's music user token carries no expiry: it is good for as long as our session.
    service_expires_at: account.service_expires_at ?? sessionExpiresAt,
    service: account.service as CampaignService,
    account_id: account.id,
  };
}

/**
 * Rotates a refresh token: the presented one is spent and a new pair is issued. A refresh token
 * presented a second time means it leaked (or was stolen): the whole session is revoked.
 * The provider's token is refreshed too when it is about to expire.
 */
export async function refreshAccountSession(ctx: ServerContext, refreshToken: string): Promise<AccountTokenInfo> {
  const now = ctx.now();
  const row = await ctx.db
    .selectFrom('cms_account_refresh_tokens')
    .innerJoin('cms_account_sessions', 'cms_account_sessions.id', 'cms_account_refresh_tokens.session_id')
    .select([
      'cms_account_refresh_tokens.token_hash',
      'cms_account_refresh_tokens.used_at',
      'cms_account_sessions.id as session_id',
      'cms_account_sessions.account_id',
      'cms_account_sessions.expires_at',
      'cms_account_sessions.revoked_at',
    ])
    .where('cms_account_refresh_tokens.token_hash', '=', hashToken(refreshToken))
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || row.expires_at <= now) throw unauthorized('Invalid or expired refresh token');
  const spent = await ctx.db
    .updateTable('cms_account_refresh_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', row.token_hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (row.used_at !== null || Number(spent.numUpdatedRows) !== 1) {
    // Guards against a replayed refresh token: whoever holds a copy loses the session too.
    await ctx.db.updateTable('cms_account_sessions').set({ revoked_at: now }).where('id', '=', row.session_id).execute();
    ctx.logger.warn({ sessionId: row.session_id }, 'refresh token reused: session revoked');
    throw unauthorized('Refresh token already used; the session was revoked');
  }
  const access = newToken();
  const refresh = newToken();
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('cms_account_sessions')
      .set({ access_token_hash: hashToken(access), access_expires_at: now + ctx.config.cms.accountAccessTtlMs })
      .where('id', '=', row.session_id)
      .execute();
    await trx.insertInto('cms_account_refresh_tokens').values({ token_hash: hashToken(refresh), session_id: row.session_id, created_at: now, used_at: null }).execute();
  });
  let account = await ctx.db.selectFrom('cms_accounts').selectAll().where('id', '=', row.account_id).executeTakeFirstOrThrow();
  account = await freshServiceToken(ctx, account, now);
  return tokenInfo(account, access, refresh, row.expires_at);
}

async function freshServiceToken(ctx: ServerContext, account: CmsAccountRow, now: number): Promise<CmsAccountRow> {
  if (account.service !== 'spotify' || !account.service_refresh_token) return account;
  if (account.service_expires_at !== null && account.service_expires_at - SERVICE_REFRESH_MARGIN_MS > now) return account;
  try {
    const t = await ctx.providers.spotify.refresh(account.service_refresh_token);
    const values = { service_access_token: t.accessToken, service_refresh_token: t.refreshToken, service_expires_at: t.expiresAt, updated_at: now };
    await ctx.db.updateTable('cms_accounts').set(values).where('id', '=', account.id).execute();
    return { ...account, ...values };
  } catch (err) {
    ctx.logger.warn({ err, accountId: account.id }, 'refreshing the spotify token failed');
    return account;
  }
}

/** Logout: the session of this access or refresh token ends (unknown tokens: nothing to do). */
export async function endAccountSession(ctx: ServerContext, token: string): Promise<void> {
  const hash = hashToken(token);
  const now = ctx.now();
  const byRefresh = await ctx.db.selectFrom('cms_account_refresh_tokens').select('session_id').where('token_hash', '=', hash).executeTakeFirst();
  await ctx.db
    .updateTable('cms_account_sessions')
    .set({ revoked_at: now })
    .where((eb) => (byRefresh ? eb('id', '=', byRefresh.session_id) : eb('access_token_hash', '=', hash)))
    .where('revoked_at', 'is', null)
    .execute();
}

/** The account of a valid access token, else 401. */
export async function accountForAccessToken(ctx: ServerContext, token: string): Promise<CampaignAccount> {
  const now = ctx.now();
  const row = await ctx.db
    .selectFrom('cms_account_sessions')
    .innerJoin('cms_accounts', 'cms_accounts.id', 'cms_account_sessions.account_id')
    .select(['cms_accounts.id', 'cms_accounts.service', 'cms_accounts.email'])
    .where('cms_account_sessions.access_token_hash', '=', hashToken(token))
    .where('cms_account_sessions.revoked_at', 'is', null)
    .where('cms_account_sessions.access_expires_at', '>', now)
    .where('cms_account_sessions.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) throw unauthorized('Invalid or expired access token');
  return { id: row.id, service: row.service as CampaignService, email: row.email };
}
