import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import { notFound } from '../../../platform/errors.ts';
import type { App } from '../../../platform/http.ts';
import { withMultipart } from '../../../platform/uploads.ts';
import { mediaInfo, sniffMedia } from '../../../platform/media.ts';
import { requireParty } from '../../parties/queries.ts';
import { storeImageUpload } from '../../uploads/service.ts';
import { partyRoute } from '../../route.ts';
import { postChatMedia } from '../messages/service.ts';
import { MEDIA_KEY, storeChatMedia } from './store.ts';

/** Chat media (upload, post, serve) and the CMS uploads of profile pictures for others. */
export async function registerMediaRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = partyRoute(ctx);

  route(app, PARTY_ROUTES.postChatMedia, async (req, _reply, fan) => postChatMedia(ctx, req.params.id, fan, req.body));

  // Chat media are served with the type sniffed from their bytes and nosniff, never as HTML.
  app.get('/uploads/media/*', { schema: { hide: true } }, async (req, reply) => {
    const key = `media/${(req.params as { '*': string })['*']}`;
    if (!MEDIA_KEY.test(key)) throw notFound('No such file');
    const bytes = await ctx.storage.get(key);
    const media = bytes ? sniffMedia(bytes) : null;
    if (!bytes || !media) throw notFound('No such file');
    // Browsers (Safari above all) fetch video in byte ranges.
    const range = parseRange(req.headers.range, bytes.length);
    if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${bytes.length}`).send({ detail: 'Range not satisfiable' });
    void reply
      .header('content-type', mediaInfo(media).mime)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('accept-ranges', 'bytes');
    if (range) {
      return reply
        .status(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${bytes.length}`)
        .send(Buffer.from(bytes.subarray(range.start, range.end + 1)));
    }
    return reply.send(Buffer.from(bytes));
  });

  // The uploads, in a scope of their own with the multipart parser.
  await withMultipart(app, ctx.config.uploadMaxBytes, (scope) => {
    route(scope, PARTY_ROUTES.uploadMedia, async (req, _reply, fan) => {
      // Storage is spent only for fans who may post media: the entry's `chat.post` (signed up, not
      // blocked), then its `fanUploads` limit.
      return storeChatMedia(ctx, req, req.params.id, fan.id);
    });

    // CMS only (the guard): uploading another user's picture changes their public profile.
    route(scope, PARTY_ROUTES.uploadProfileFor, async (req) => {
      await requireParty(ctx.db, req.params.id);
      const user = await ctx.db
        .selectFrom('party_users')
        .select('fan_id')
        .where('party_id', '=', req.params.id)
        .where('fan_id', '=', req.params.userId)
        .executeTakeFirst();
      if (!user) throw notFound(`No user ${req.params.userId} in this party`);
      const stored = await storeImageUpload(ctx, req, `profiles/${safeSegment(req.params.id)}/${safeSegment(req.params.userId)}`);
      await ctx.db
        .updateTable('party_users')
        .set({ profile_picture: stored.url })
        .where('party_id', '=', req.params.id)
        .where('fan_id', '=', req.params.userId)
        .execute();
      return stored;
    });

    // CMS only (the guard): a picture for a host or admin grant (the admin tool puts the URL in the grant).
    route(scope, PARTY_ROUTES.uploadAdminProfile, async (req) => {
      await requireParty(ctx.db, req.params.id);
      return storeImageUpload(ctx, req, `profiles/${safeSegment(req.params.id)}/grants`);
    });
  });
}

/** One `bytes=start-end` range of a Range header (suffix and open ranges too); null to send it all. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}

/** A storage path segment made of safe characters only (ids are free text). */
function safeSegment(id: string): string {
  return /^[\w-]{1,64}$/.test(id) ? id : Buffer.from(id).toString('hex').slice(0, 64);
}
