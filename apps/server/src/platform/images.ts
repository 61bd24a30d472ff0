import { imageSize } from 'image-size';
import { payloadTooLarge, unsupportedMedia } from './errors.ts';

/**
 * Ours: the most pixels an uploaded image may have (e.g. 6000 x 4000). A small file can declare a
 * huge canvas (a decompression bomb) that would exhaust the memory of every browser showing it.
 */
export const MAX_IMAGE_PIXELS = 24_000_000;

/** Image kinds we accept, recognised by their first bytes (never by file name or declared type). */
export const IMAGE_KINDS = {
  png: { mime: 'image/png', ext: 'png' },
  jpeg: { mime: 'image/jpeg', ext: 'jpg' },
  gif: { mime: 'image/gif', ext: 'gif' },
  webp: { mime: 'image/webp', ext: 'webp' },
} as const;
export type ImageKind = keyof typeof IMAGE_KINDS;

/** Sniffs the image kind from the file's magic bytes; null when it is not an image we accept. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38])) return 'gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return null;
}

/** The pixel size an image's header declares (call after `checkUploadedImage`, which refuses unreadable ones). */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } {
  const { width, height } = imageSize(bytes);
  return { width, height };
}

/**
 * The kind of an uploaded image, checked by its bytes and by the canvas size its header declares:
 * 415 when it is not an image we accept or its size cannot be read, 413 above MAX_IMAGE_PIXELS.
 */
export function checkUploadedImage(bytes: Uint8Array): ImageKind {
  const kind = sniffImage(bytes);
  if (!kind) throw unsupportedMedia('Only PNG, JPEG, GIF or WebP images are accepted');
  let pixels: number;
  try {
    const { width, height } = imageSize(bytes);
    pixels = width * height;
  } catch {
    throw unsupportedMedia('The image size cannot be read');
  }
  if (!(pixels > 0)) throw unsupportedMedia('The image size cannot be read');
  if (pixels > MAX_IMAGE_PIXELS) throw payloadTooLarge(`The image has ${pixels} pixels; at most ${MAX_IMAGE_PIXELS} are accepted`);
  return kind;
}
