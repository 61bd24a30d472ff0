import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.ts';
import { unsupportedMedia } from '../../platform/errors.ts';
import { IMAGE_KINDS, sniffImage } from '../../platform/images.ts';
import { newId } from '../../platform/tokens.ts';
import { readSingleFile } from '../../platform/uploads.ts';

/**
 * Reads the single file of a multipart request, checks it is an image by its bytes (never by its
 * name or declared type) and within the size limit, stores it under `folder`, and returns its URL.
 */
export async function storeImageUpload(ctx: ServerContext, req: FastifyRequest, folder: string): Promise<{ url: string }> {
  const bytes = await readSingleFile(req, ctx.config.uploadMaxBytes);
  const kind = sniffImage(bytes);
  if (!kind) throw unsupportedMedia('Only PNG, JPEG, GIF or WebP images are accepted');
  const key = `${folder}/${newId()}.${IMAGE_KINDS[kind].ext}`;
  await ctx.storage.put(key, bytes);
  return { url: `${ctx.config.publicUrl}/uploads/${key}` };
}
