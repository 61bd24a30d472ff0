import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { ServerContext } from '../../../context.ts';
import { unprocessable, unsupportedMedia } from '../../../platform/errors.ts';
import { mediaInfo, sniffMedia } from '../../../platform/media.ts';
import { newId } from '../../../platform/tokens.ts';
import { readSingleFile } from '../../../platform/uploads.ts';
import { checkUploadedImage } from '../../../platform/images.ts';
import { storeFanUpload } from '../../uploads/quota.ts';

/** Where chat media are stored: `media/<party>/<fan>/<id>.<ext>`, served under `/uploads/media/`. */
export const MEDIA_KEY = /^media\/([\w-]+)\/([\w-]+)\/[\w-]+\.(png|jpg|gif|webp|mp4|webm)$/;

/** A storage-safe folder name for a party id (ids are free text; keys must not be). */
export function partyFolder(partyId: string): string {
  return /^[\w-]{1,64}$/.test(partyId) ? partyId : createHash('sha256').update(partyId).digest('hex').slice(0, 32);
}

/**
 * Reads the single file of a multipart request, checks by its bytes that it is an image (PNG,
 * JPEG, GIF, WebP) or a video (MP4, WebM) and by its length that it is within UPLOAD_MAX_BYTES,
 * stores it in the fan's media folder of the party and returns its URL.
 */
export async function storeChatMedia(ctx: ServerContext, req: FastifyRequest, partyId: string, fanId: string): Promise<{ url: string }> {
  const bytes = await readSingleFile(req, ctx.config.uploadMaxBytes);
  const media = sniffMedia(bytes);
  if (!media) throw unsupportedMedia('Only PNG, JPEG, GIF or WebP images and MP4 or WebM videos are accepted');
  if (media.kind === 'image') checkUploadedImage(bytes);
  const key = `media/${partyFolder(partyId)}/${fanId}/${newId()}.${mediaInfo(media).ext}`;
  await storeFanUpload(ctx, { partyId, fanId }, key, bytes);
  return { url: `${ctx.config.publicUrl}/uploads/${key}` };
}

/**
 * Checks a photo or video URL of a chat media message: one of this fan's uploads to this party,
 * still stored, and of the expected kind by its bytes. Anything else is a 422 naming the field.
 */
export async function checkChatMedia(
  ctx: ServerContext,
  partyId: string,
  fanId: string,
  url: string,
  kind: 'image' | 'video',
  loc: (string | number)[],
): Promise<void> {
  const prefix = `${ctx.config.publicUrl}/uploads/`;
  const key = url.startsWith(prefix) ? url.slice(prefix.length) : url.startsWith('/uploads/') ? url.slice('/uploads/'.length) : null;
  const match = key ? MEDIA_KEY.exec(key) : null;
  // Only the fan's own uploads to this party: no hot-linking of other files or other fans' media.
  if (!key || !match || match[1] !== partyFolder(partyId) || match[2] !== fanId) {
    throw unprocessable(loc, 'Expected the URL of your own upload from POST .../uploads/media', 'invalid_media_url');
  }
  const bytes = await ctx.storage.get(key);
  const media = bytes ? sniffMedia(bytes) : null;
  if (!media) throw unprocessable(loc, 'No such upload', 'invalid_media_url');
  if (media.kind !== kind) throw unprocessable(loc, `The upload is not a${kind === 'image' ? 'n image' : ' video'}`, 'wrong_media_kind');
}
