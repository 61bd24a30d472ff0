import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { IMAGE_KINDS, sniffImage } from '../../platform/images.ts';
import { sendStoredFile, withMultipart } from '../../platform/uploads.ts';
import { cmsRoute } from '../route.ts';
import { createFolder, deleteFolder, deleteUpload, patchUpload, folderOfFile, listFolder, listUploads, normaliseFolder, ROOT, searchUploads, storeUpload } from './service.ts';

const SAFE_KEY = /^cms\/[\w-]+\.(png|jpg|gif|webp)$/;

// The router has decoded the path already: decoding again turned `%25` into a lone `%` and a 500.
const folderParam = (req: { params: { '*': string } }): string => normaliseFolder(req.params['*'], ['path']);

export async function registerCmsUploadRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);

  route(app, CMS_ROUTES.listUploads, async (req) => {
    if (req.query.q !== undefined) return { items: await searchUploads(ctx, req.query.q) };
    const folder = req.query.folder !== undefined ? normaliseFolder(req.query.folder, ['query', 'folder']) : null;
    return { items: await listUploads(ctx, folder) };
  });

  // In a scope of its own with the multipart parser: no other CMS request pays for its hooks.
  await withMultipart(app, ctx.config.uploadMaxBytes, (scope) => {
    route(scope, CMS_ROUTES.createUpload, async (req, _reply, user) => storeUpload(ctx, req, user.id));
  });

  route(app, CMS_ROUTES.setUploadAlt, async (req) => patchUpload(ctx, req.params.id, req.body));

  route(app, CMS_ROUTES.deleteUpload, async (req) => {
    await deleteUpload(ctx, req.params.id);
  });

  route(app, CMS_ROUTES.getRootFolder, async (req) => (req.query.file_url ? folderOfFile(ctx, req.query.file_url) : listFolder(ctx, ROOT)));

  route(app, CMS_ROUTES.getFolder, async (req) => listFolder(ctx, folderParam(req)));

  route(app, CMS_ROUTES.createFolder, async (req) => createFolder(ctx, folderParam(req), true));

  route(app, CMS_ROUTES.deleteFolder, async (req) => {
    await deleteFolder(ctx, folderParam(req));
  });

  app.get('/uploads/cms/:file', { schema: { hide: true } }, async (req, reply) => {
    const key = `cms/${(req.params as { file: string }).file}`;
    if (!SAFE_KEY.test(key)) throw notFound('No such file');
    const bytes = await ctx.storage.get(key);
    const kind = bytes ? sniffImage(bytes) : null;
    if (!bytes || !kind) throw notFound('No such file');
    return sendStoredFile(reply, bytes, IMAGE_KINDS[kind].mime);
  });
}
