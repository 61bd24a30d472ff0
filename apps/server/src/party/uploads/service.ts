import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.ts';
import { badRequest, payloadTooLarge, unsupportedMedia } from '../../platform/errors.ts';
import { IMAGE_KINDS, sniffImage } from '../../platform/images.ts';
import { newId } from '../../platform/tokens.ts';

/**
 * Reads the single file of a multipart request, checks it is an image by its bytes (never by its
 * name or declared type) and within the size limit, stores it under `folder`, and returns its URL.
 */
export async function storeImageUpload(ctx: ServerContext, req: FastifyRequest, folder: string): Promise<{ url: string }> {
  let file: MultipartFile | undefined;
  try {
    file = await req.file({ limits: { fileSize: ctx.config.uploadMaxBytes, files: 1 } });
  } catch (e) {
    throw badRequest(`Expected a multipart/form-data body with one file: ${(e as Error).message}`);
  }
  if (!file) throw badRequest('Expected a multipart/form-data body with one file');
  let bytes: Buffer;
  try {
    bytes = await file.toBuffer();
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw payloadTooLarge(`File larger than ${ctx.config.uploadMaxBytes} bytes`);
    }
    throw e;
  }
  const kind = sniffImage(bytes);
  if (!kind) throw unsupportedMedia('Only PNG, JPEG, GIF or WebP images are accepted');
  const key = `${folder}/${newId()}.${IMAGE_KINDS[kind].ext}`;
  await ctx.storage.put(key, bytes);
  return { url: `${ctx.config.publicUrl}/uploads/${key}` };
}
