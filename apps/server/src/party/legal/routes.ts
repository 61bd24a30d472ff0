import { LegalPage } from '@fanfare/protocol';
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.ts';
import { DEMO_PARTY_ID } from '../../demo/seed.ts';
import type { App } from '../../platform/http.ts';
import { pageHeaders } from '../../platform/securityHeaders.ts';
import { framingOrigins } from '../../platform/webConfig.ts';
import { findParty } from '../parties/queries.ts';
import { frontendOf } from '../parties/service.ts';
import { LEGAL_TITLES, legalBody, legalLocale, renderLegalPage } from './pages.ts';

const PartyId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const LegalQuery = z.object({ lang: z.string().max(8).optional() });

/**
 * Imprint, privacy and terms (spec 2 footer links; issue 15): `/legal/{page}` for the default
 * party, `/p/{partyId}/legal/{page}` for any other. HTML pages, never a JSON 404.
 */
export async function registerLegalPages(app: App, ctx: ServerContext): Promise<void> {
  const answer = async (req: FastifyRequest, reply: FastifyReply, partyId: string, page: LegalPage, lang: string | undefined) => {
    const locale = legalLocale(lang, req.headers['accept-language']);
    const party = await findParty(ctx.db, partyId);
    const body = await legalBody(page, locale, party ? frontendOf(party) : null, ctx.config.legalDir);
    const backHref = partyId === DEMO_PARTY_ID ? '/' : `/p/${partyId}/`;
    const html = renderLegalPage({
      title: LEGAL_TITLES[locale][page],
      body,
      partyName: party?.name ?? null,
      backHref,
      backLabel: locale === 'de' ? 'Zurück zur Party' : 'Back to the party',
      locale,
    });
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  };
  // Framed like the party app they belong to.
  const helmet = pageHeaders(framingOrigins(ctx.config), 'same-origin');

  app.get(
    '/legal/:page',
    { schema: { hide: true, params: z.object({ page: LegalPage }), querystring: LegalQuery }, helmet },
    async (req, reply) => answer(req, reply, DEMO_PARTY_ID, req.params.page, req.query.lang),
  );
  app.get(
    '/p/:partyId/legal/:page',
    { schema: { hide: true, params: z.object({ partyId: PartyId, page: LegalPage }), querystring: LegalQuery }, helmet },
    async (req, reply) => answer(req, reply, req.params.partyId, req.params.page, req.query.lang),
  );
}
