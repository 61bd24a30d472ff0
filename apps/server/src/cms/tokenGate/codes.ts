import type { TokenGateCodesPage } from '@fanfare/protocol';
import { TokenGateCodesPageQuery } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { iso } from '../shared.ts';

/** One page of a product's access codes with their uses (the codes themselves are stored hashed). */
export async function pageAccessCodes(ctx: ServerContext, productId: string, input: { page?: number; page_size?: number }): Promise<TokenGateCodesPage> {
  const q = TokenGateCodesPageQuery.parse(input);
  const base = () => ctx.db.selectFrom('cms_token_gate_codes').where('product_id', '=', productId);
  const totals = await base()
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string | null>('uses').as('uses')])
    .executeTakeFirst();
  const rows = await base().selectAll().orderBy('created_at', 'desc').orderBy('id').limit(q.page_size).offset((q.page - 1) * q.page_size).execute();
  return {
    items: rows.map((r) => ({ id: r.id, product_id: r.product_id, uses: r.uses, max_uses: r.max_uses, created_at: iso(r.created_at) })),
    total: Number(totals?.n ?? 0),
    total_uses: Number(totals?.uses ?? 0),
    page: q.page,
    page_size: q.page_size,
  };
}
