/**
 * Chat media kinds recognised by their first bytes (never by file name or declared type): the
 * images of `images.ts` plus MP4 and WebM video.
 */
import { IMAGE_KINDS, sniffImage, type ImageKind } from './images.ts';

export const VIDEO_KINDS = {
  mp4: { mime: 'video/mp4', ext: 'mp4' },
  webm: { mime: 'video/webm', ext: 'webm' },
} as const;
export type VideoKind = keyof typeof VIDEO_KINDS;

export type MediaKind = { kind: 'image'; format: ImageKind } | { kind: 'video'; format: VideoKind };

/** ISO base media brands that are MP4 video (HEIF/AVIF images and QuickTime share the `ftyp` box). */
const MP4_BRANDS = new Set(['isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'M4V ', 'dash', 'mmp4', 'MSNV']);

/** Sniffs MP4 (an `ftyp` box with a video brand) or WebM (an EBML header whose DocType is `webm`). */
export function sniffVideo(bytes: Uint8Array): VideoKind | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(4, 8) === 'ftyp' && MP4_BRANDS.has(ascii(8, 12))) return 'mp4';
  if (bytes.length >= 8 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    // The DocType element (0x42 0x82) sits inside the EBML header, within its first few dozen bytes.
    const head = bytes.subarray(0, Math.min(bytes.length, 64));
    for (let i = 4; i + 6 < head.length; i++) {
      if (head[i] === 0x42 && head[i + 1] === 0x82) {
        const size = head[i + 2]! & 0x7f; // one-byte EBML size (0x84 for "webm")
        return ascii(i + 3, i + 3 + size) === 'webm' ? 'webm' : null;
      }
    }
  }
  return null;
}

/** An image or video we accept in the chat, or null. */
export function sniffMedia(bytes: Uint8Array): MediaKind | null {
  const image = sniffImage(bytes);
  if (image) return { kind: 'image', format: image };
  const video = sniffVideo(bytes);
  return video ? { kind: 'video', format: video } : null;
}

/** MIME type and file extension of a sniffed media kind. */
export function mediaInfo(media: MediaKind): { mime: string; ext: string } {
  return media.kind === 'image' ? IMAGE_KINDS[media.format] : VIDEO_KINDS[media.format];
}
