import { CMS_ROUTES, PARTY_ROUTES, type ErasureReport } from '@fanfare/protocol';
import type { ServerContext } from '../context.ts';
import type { App } from '../platform/http.ts';
import { cmsRoute } from '../cms/route.ts';
import { partyRoute } from '../party/route.ts';
import { listDataRightsAudit, writeDataRightsAudit } from './audit.ts';
import { eraseByEmail, eraseFan, exportByEmail, exportFan } from './service.ts';

const counts = (report: ErasureReport) => Object.fromEntries(Object.entries(report).filter(([k]) => k !== 'erased_at'));

/** The fan's own data-rights calls on the party listener. */
export async function registerFanDataRightsRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = partyRoute(ctx);
  route(app, PARTY_ROUTES.getMyData, async (_req, _reply, fan) => {
    const data = await exportFan(ctx, fan);
    await writeDataRightsAudit(ctx.db, ctx.now(), {
      action: 'export',
      actorKind: 'fan',
      actorId: fan.id,
      subject: { fanId: fan.id },
      summary: { parties: data.party_signups.length, chat_messages: data.chat_messages.length },
    });
    return data;
  });
  route(app, PARTY_ROUTES.deleteMe, async (_req, _reply, fan) => {
    const report = await eraseFan(ctx, fan);
    await writeDataRightsAudit(ctx.db, ctx.now(), { action: 'erase', actorKind: 'fan', actorId: fan.id, subject: { fanId: fan.id }, summary: counts(report) });
  });
}

/** The back office's data-rights calls on the CMS listener (permission `dataRights.manage`). */
export async function registerCmsDataRightsRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);
  route(app, CMS_ROUTES.dataRightsExport, async (req, _reply, user) => {
    const data = await exportByEmail(ctx, req.body.email);
    await writeDataRightsAudit(ctx.db, ctx.now(), {
      action: 'export',
      actorKind: 'cms',
      actorId: user.id,
      subject: { email: req.body.email },
      summary: { fans: data.fans.length, consents: data.visitor.newsletter_consents.length, campaign_accounts: data.visitor.campaign_accounts.length, presaves: data.visitor.presaves.length },
    });
    return data;
  });
  route(app, CMS_ROUTES.dataRightsErase, async (req, _reply, user) => {
    const report = await eraseByEmail(ctx, req.body.email);
    await writeDataRightsAudit(ctx.db, ctx.now(), { action: 'erase', actorKind: 'cms', actorId: user.id, subject: { email: req.body.email }, summary: counts(report) });
    return report;
  });
  route(app, CMS_ROUTES.dataRightsAudit, async () => ({ items: await listDataRightsAudit(ctx.db) }));
}
