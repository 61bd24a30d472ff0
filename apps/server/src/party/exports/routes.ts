import { Readable } from 'node:stream';
import { PARTY_ROUTES } from '@fanfare/protocol';
import type { FastifyReply } from 'fastify';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { partyRoute } from '../route.ts';
import { partyRecap } from '../recap/service.ts';
import { answersCsv, chatCsv, fansCsv } from './service.ts';

/**
 * The recap and the CSV exports of a party (issue 14): they carry the fans' chat, and the fans
 * export their e-mails, so the entries ask for `party.recap` (the admin tool only).
 */
export async function registerRecapAndExportRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = partyRoute(ctx);

  const stream = (reply: FastifyReply, partyId: string, name: string, rows: AsyncGenerator<string>) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="party-${partyId.replace(/[^\w-]/g, '_')}-${name}.csv"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(rows));

  route(app, PARTY_ROUTES.getPartyRecap, async (req) => partyRecap(ctx, req.params.id));

  route(app, PARTY_ROUTES.exportChatCsv, async (req, reply) => stream(reply, req.params.id, 'chat', chatCsv(ctx, req.params.id)));

  route(app, PARTY_ROUTES.exportAnswersCsv, async (req, reply) => stream(reply, req.params.id, 'answers', answersCsv(ctx, req.params.id)));

  route(app, PARTY_ROUTES.exportFansCsv, async (req, reply) => stream(reply, req.params.id, 'fans', fansCsv(ctx, req.params.id)));
}
