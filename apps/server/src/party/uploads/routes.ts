import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { IMAGE_KINDS, sniffImage } from '../../platform/images.ts';
import { sendStoredFile, withMultipart } from '../../platform/uploads.ts';
import { partyFolder } from '../chat/media/store.ts';
import { partyRoute } from '../route.ts';
import { storeImageUpload } from './service.ts';

const SAFE_KEY = /^[\w-]+(\/[\w-]+)*\.(png|jpg|gif|webp)$/;

export async function registerUploadRoutes(app: App, ctx: ServerContext): Promise<void> {
  await withMultipart(app, ctx.config.uploadMaxBytes, (scope) =>
    partyRoute(ctx)(scope, PARTY_ROUTES.uploadProfile, async (req, _reply, fan) => {
      // Storage is spent only on fans of this party (issue 10): the entry's `users.uploadOwn` needs
      // a signup, and its `fanUploads` limit counts the fan's uploads.
      return storeImageUpload(ctx, req, `profiles/${partyFolder(req.params.id)}/${fan.id}`, { partyId: req.params.id, fanId: fan.id });
    }),
  );

  app.get('/uploads/*', { schema: { hide: true } }, async (req, reply) => {
    const key = (req.params as { '*': string })['*'];
    if (!SAFE_KEY.test(key)) throw notFound('No such file');
    const bytes = await ctx.storage.get(key);
    const kind = bytes ? sniffImage(bytes) : null;
    if (!bytes || !kind) throw notFound('No such file');
    return sendStoredFile(reply, bytes, IMAGE_KINDS[kind].mime);
  });
}
