import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.ts';
import { IMAGE_KINDS, checkUploadedImage } from '../../platform/images.ts';
import { newId } from '../../platform/tokens.ts';
import { readSingleFile } from '../../platform/uploads.ts';
import { storeFanUpload, type UploadOwner } from './quota.ts';

/**
 * Reads the single file of a multipart request, checks it is an image by its bytes (never by its
 * name or declared type), within the size and pixel limits, stores it under `folder`, and returns
 * its URL. A fan's upload (`owner`) counts against the fan's and the party's quota.
 */
export async function storeImageUpload(ctx: ServerContext, req: FastifyRequest, folder: string, owner?: UploadOwner): Promise<{ url: string }> {
  const bytes = await readSingleFile(req, ctx.config.uploadMaxBytes);
  const kind = checkUploadedImage(bytes);
  const key = `${folder}/${newId()}.${IMAGE_KINDS[kind].ext}`;
  if (owner) await storeFanUpload(ctx, owner, key, bytes);
  else await ctx.storage.put(key, bytes);
  return { url: `${ctx.config.publicUrl}/uploads/${key}` };
}
