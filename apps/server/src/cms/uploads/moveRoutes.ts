import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { cmsRoute } from '../route.ts';
import { moveFolder } from './moveFolder.ts';

/** Renaming a media folder (by moving it) from the back office. */
export async function registerUploadFolderMoveRoutes(app: App, ctx: ServerContext): Promise<void> {
  cmsRoute(ctx)(app, CMS_ROUTES.moveUploadFolder, async (req) => moveFolder(ctx, req.body));
}
