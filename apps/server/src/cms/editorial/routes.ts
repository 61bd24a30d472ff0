import { CMS_ROUTES, type AuditEntry } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { csvLine } from '../../party/exports/csv.ts';
import { requireCampaign, getCampaign } from '../campaigns/service.ts';
import { sendCsv } from '../newsletter/ledgerRoutes.ts';
import { cmsRoute } from '../route.ts';
import { auditEntries, auditPage } from './audit.ts';
import { previewLink } from './preview.ts';
import { publishCampaign, restoreCampaignVersion, scheduleCampaign, unpublishCampaign } from './publish.ts';
import { actorOf, listVersions, versionDiff } from './versions.ts';
import { partySettingsOf } from '../../party/parties/versions.ts';

const AUDIT_CSV_COLUMNS: (keyof AuditEntry)[] = ['created_at', 'actor', 'action', 'method', 'path', 'entity_type', 'entity_id', 'before', 'after'];

async function* auditCsv(ctx: ServerContext, query: Parameters<typeof auditEntries>[1]): AsyncGenerator<string> {
  yield csvLine(AUDIT_CSV_COLUMNS);
  for await (const e of auditEntries(ctx.db, query)) yield csvLine(AUDIT_CSV_COLUMNS.map((k) => e[k]));
}

/** The editorial workflow's calls: publish, schedule, versions, preview links, the audit log. */
export async function registerEditorialRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);
  route(app, CMS_ROUTES.publishCampaign, async (req, _reply, user) => publishCampaign(ctx, actorOf(user), req.params.id, req.body));
  route(app, CMS_ROUTES.unpublishCampaign, async (req) => unpublishCampaign(ctx, req.params.id));
  route(app, CMS_ROUTES.scheduleCampaign, async (req, _reply, user) => scheduleCampaign(ctx, actorOf(user), req.params.id, req.body));
  route(app, CMS_ROUTES.restoreCampaignVersion, async (req, _reply, user) => restoreCampaignVersion(ctx, actorOf(user), req.params.id, req.params.version));

  route(app, CMS_ROUTES.campaignVersions, async (req) => {
    const row = await requireCampaign(ctx.db, req.params.id);
    return { items: await listVersions(ctx.db, 'campaign', row.id, row.published_version === null ? null : Number(row.published_version)) };
  });
  route(app, CMS_ROUTES.campaignVersionDiff, async (req) => {
    const { id } = req.params;
    await requireCampaign(ctx.db, id);
    return versionDiff(ctx.db, 'campaign', id, req.query.from, req.query.to);
  });
  route(app, CMS_ROUTES.campaignPreviewLink, async (req) => {
    const campaign = await getCampaign(ctx, req.params.id);
    return previewLink(ctx, campaign.id, campaign.url);
  });
  route(app, CMS_ROUTES.partyVersions, async (req) => ({ items: await listVersions(ctx.db, 'party', req.params.id) }));
  route(app, CMS_ROUTES.partyVersionDiff, async (req) => versionDiff(ctx.db, 'party', req.params.id, req.query.from, req.query.to, partySettingsOf));

  route(app, CMS_ROUTES.listAuditLog, async (req) => auditPage(ctx.db, req.query));
  route(app, CMS_ROUTES.exportAuditLogCsv, async (req, reply) => sendCsv(reply, 'audit-log.csv', auditCsv(ctx, req.query)));
}
