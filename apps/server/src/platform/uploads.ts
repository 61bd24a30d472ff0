import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, payloadTooLarge } from './errors.ts';
import type { App } from './http.ts';

/** The multipart parser's limits: one file of at most `maxBytes`. */
function multipartOptions(maxBytes: number) {
  return { limits: { fileSize: maxBytes, files: 1, fields: 5 } };
}

/**
 * Registers upload routes in a scope of their own with the multipart parser: its two async hooks
 * then run for these routes only, not for every request of the listener (issue 16: every cached
 * `GET party` paid for them).
 */
export async function withMultipart(app: App, maxBytes: number, register: (scope: App) => void): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, multipartOptions(maxBytes));
    register(scope as unknown as App);
  });
}

/**
 * Reads the single file of a multipart request: 400 when there is none, 413 past `maxBytes`.
 * What the bytes are is the caller's check (by content, never by name or declared type).
 */
export async function readSingleFile(req: FastifyRequest, maxBytes: number): Promise<Buffer> {
  let file: MultipartFile | undefined;
  try {
    file = await req.file({ limits: { fileSize: maxBytes, files: 1 } });
  } catch (e) {
    throw badRequest(`Expected a multipart/form-data body with one file: ${(e as Error).message}`);
  }
  if (!file) throw badRequest('Expected a multipart/form-data body with one file');
  let bytes: Buffer;
  try {
    bytes = await file.toBuffer();
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw payloadTooLarge(`File larger than ${maxBytes} bytes`);
    throw e;
  }
  // toBuffer() misses the limit when the last chunk is the one cut off: a truncated file would
  // be stored as if whole. The stream's own flag (and the length) say it was cut.
  if (file.file.truncated || bytes.length > maxBytes) throw payloadTooLarge(`File larger than ${maxBytes} bytes`);
  return bytes;
}

/**
 * Answers with a stored upload. The type comes from the sniffed bytes and `nosniff` is set, so a
 * stored file is never run as HTML; keys are immutable, so the answer caches for good.
 */
export function sendStoredFile(reply: FastifyReply, bytes: Uint8Array, mime: string): FastifyReply {
  return reply
    .header('content-type', mime)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'public, max-age=31536000, immutable')
    .send(Buffer.from(bytes));
}
