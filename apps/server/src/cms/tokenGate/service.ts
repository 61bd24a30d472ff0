import type { TokenGateCodesResponse, TokenGateKey, TokenGateResult } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { forbidden, notFound, unprocessable } from '../../platform/errors.ts';
import { consumeAllowance } from '../../platform/limits/counters.ts';
import { hashToken, newId, newToken } from '../../platform/tokens.ts';
import { getCampaign } from '../campaigns/service.ts';
import type { CampaignView } from '../editorial/preview.ts';
import { requirePublishedCampaign } from '../editorial/publish.ts';
import { iso, isoOrNull } from '../shared.ts';

/** Codes are typed by people: spaces and case do not matter. */
export function normaliseCode(code: string): string {
  return code.replace(/\s+/g, '').toUpperCase();
}

/** Codes stored per batch: one lookup and one insert each, then the event loop gets a turn. */
const CODE_BATCH = 1000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Stores access codes for a product from CSV text: one code per line, optionally `,max_uses`;
 * a first line `code,...` is a header. Every line is checked before anything is stored. Codes are
 * stored in batches of CODE_BATCH (a lookup and a multi-row insert each) with a turn of the event
 * loop between batches, so a 100k-line upload never stalls every other request (issue 10).
 */
export async function uploadAccessCodes(ctx: ServerContext, productId: string, csv: string, defaultMaxUses: number): Promise<TokenGateCodesResponse> {
  const codes = new Map<string, number>();
  const lines = csv.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (i > 0 && i % CODE_BATCH === 0) await nextTurn();
    const cells = lines[i]!.split(/[,;]/).map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
    if (!cells[0] || (i === 0 && /^code$/i.test(cells[0]))) continue;
    const code = normaliseCode(cells[0]);
    if (code.length > 200) throw unprocessable(['body', 'line', i + 1], 'Code longer than 200 characters');
    const uses = cells[1] ? Number(cells[1]) : defaultMaxUses;
    if (!Number.isInteger(uses) || uses < 1 || uses > 1_000_000) throw unprocessable(['body', 'line', i + 1], 'max_uses must be a whole number from 1 to 1000000');
    codes.set(code, uses);
  }
  if (codes.size === 0) throw unprocessable(['body'], 'No codes in the upload');
  const now = ctx.now();
  let added = 0;
  const entries = [...codes];
  for (let start = 0; start < entries.length; start += CODE_BATCH) {
    const batch = entries.slice(start, start + CODE_BATCH).map(([code, maxUses]) => ({ hash: hashToken(`${productId}\n${code}`), maxUses }));
    await ctx.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('cms_token_gate_codes')
        .select(['id', 'code_hash'])
        .where('product_id', '=', productId)
        .where('code_hash', 'in', batch.map((e) => e.hash))
        .execute();
      const idByHash = new Map(existing.map((row) => [row.code_hash, row.id]));
      const fresh = batch.filter((e) => !idByHash.has(e.hash));
      if (fresh.length > 0) {
        await trx
          .insertInto('cms_token_gate_codes')
          .values(fresh.map((e) => ({ id: newId(), product_id: productId, code_hash: e.hash, max_uses: e.maxUses, uses: 0, created_at: now })))
          .execute();
      }
      for (const e of batch) {
        const id = idByHash.get(e.hash);
        if (id) await trx.updateTable('cms_token_gate_codes').set({ max_uses: e.maxUses }).where('id', '=', id).execute();
      }
      added += fresh.length;
    });
    await nextTurn();
  }
  return { product_id: productId, added, updated: codes.size - added };
}

const denied = (message: string) => forbidden({ message, type: 'TokenGateDenied' });

/**
 * The built-in token-gate provider: checks an access code for the campaign's product, spends one
 * use of it and issues an access key (random, stored hashed, expiring no later than the campaign).
 * A gate that is disabled or has no product lets everyone in without a key.
 */
/** Access code checks one client address may make per product and minute. */
export const TOKEN_GATE_GUESSES_PER_MINUTE = 10;

export async function checkWithProvider(
  ctx: ServerContext,
  campaignId: string,
  credentials: { code: string },
  clientAddress: string,
  view: CampaignView = 'published',
): Promise<TokenGateResult> {
  const campaign = await requirePublishedCampaign(ctx, campaignId, view);
  const productId = campaign.token_gate.product_id;
  if (!campaign.token_gate.enabled || !productId) return { has_access: true, access_key: null };
  // Slows guessing of access codes. Codes belong to a product, so the count is per product and
  // client address, shared by every campaign of that product and every node; a refused guess
  // counts too.
  await consumeAllowance(ctx.db, `token-gate:${productId}:${clientAddress}`, { max: TOKEN_GATE_GUESSES_PER_MINUTE, windowMs: 60_000, what: 'access code checks a minute for this product' }, ctx.now());
  const now = ctx.now();
  const endsAt = campaign.ends_at ? Date.parse(campaign.ends_at) : null;
  if (endsAt !== null && endsAt <= now) throw denied('The campaign has ended');
  const code = await ctx.db
    .selectFrom('cms_token_gate_codes')
    .select(['id'])
    .where('product_id', '=', productId)
    .where('code_hash', '=', hashToken(`${productId}\n${normaliseCode(credentials.code)}`))
    .executeTakeFirst();
  if (!code) throw denied('Access code not valid');
  // Spends one use only while some are left (atomic, so parallel checks cannot overspend).
  const spent = await ctx.db
    .updateTable('cms_token_gate_codes')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('id', '=', code.id)
    .where((eb) => eb('uses', '<', eb.ref('max_uses')))
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) throw denied('Access code already used up');
  const key = newToken();
  const expiresAt = Math.min(now + ctx.config.cms.tokenGateKeyTtlMs, endsAt ?? Number.MAX_SAFE_INTEGER);
  await ctx.db
    .insertInto('cms_token_gate_keys')
    .values({ id: newId(), key_hash: hashToken(key), campaign_id: campaign.id, product_id: productId, code_id: code.id, created_at: now, expires_at: expiresAt, revoked_at: null })
    .execute();
  return { has_access: true, access_key: key };
}

/**
 * Whether a key opens the campaign: always when the gate is disabled or has no product; else the
 * key must be for the campaign's product (a gate page issues it, the gated page checks it),
 * unexpired and not revoked.
 */
export async function verifyAccess(ctx: ServerContext, campaignId: string, key: string | null, view: CampaignView = 'published'): Promise<TokenGateResult> {
  const campaign = await requirePublishedCampaign(ctx, campaignId, view);
  const productId = campaign.token_gate.product_id;
  if (!campaign.token_gate.enabled || !productId) return { has_access: true, access_key: null };
  if (!key) return { has_access: false, access_key: null };
  const row = await ctx.db
    .selectFrom('cms_token_gate_keys')
    .select('id')
    .where('key_hash', '=', hashToken(key))
    .where('product_id', '=', productId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', ctx.now())
    .executeTakeFirst();
  return row ? { has_access: true, access_key: key } : { has_access: false, access_key: null };
}

/** Keys a campaign issued (never the keys themselves). */
export async function listAccessKeys(ctx: ServerContext, campaignId: string): Promise<TokenGateKey[]> {
  await getCampaign(ctx, campaignId);
  const rows = await ctx.db.selectFrom('cms_token_gate_keys').selectAll().where('campaign_id', '=', campaignId).orderBy('created_at').execute();
  return rows.map((r) => ({
    id: r.id,
    campaign_id: r.campaign_id,
    product_id: r.product_id,
    created_at: iso(r.created_at),
    expires_at: iso(r.expires_at),
    revoked_at: isoOrNull(r.revoked_at),
  }));
}

/** Revokes an issued key: it stops opening the gate at once. */
export async function revokeAccessKey(ctx: ServerContext, campaignId: string, keyId: string): Promise<void> {
  const res = await ctx.db
    .updateTable('cms_token_gate_keys')
    .set({ revoked_at: ctx.now() })
    .where('id', '=', keyId)
    .where('campaign_id', '=', campaignId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) {
    const exists = await ctx.db.selectFrom('cms_token_gate_keys').select('id').where('id', '=', keyId).where('campaign_id', '=', campaignId).executeTakeFirst();
    if (!exists) throw notFound('Access key not found');
  }
}
