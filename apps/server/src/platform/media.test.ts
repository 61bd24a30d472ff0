import { describe, expect, it } from 'vitest';
import { mediaInfo, sniffMedia, sniffVideo } from './media.ts';

const bytes = (...parts: (number[] | string)[]) => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p)] : p)));

describe('chat media sniffing by magic bytes (uploads checked by content, not by name)', () => {
  it('recognises MP4 by its ftyp box and a video brand', () => {
    expect(sniffVideo(bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0]))).toBe('mp4');
    expect(sniffVideo(bytes([0, 0, 0, 0x1c], 'ftypmp42'))).toBe('mp4');
    // HEIF/AVIF images and QuickTime share the box but are not accepted as MP4 video.
    expect(sniffVideo(bytes([0, 0, 0, 0x18], 'ftypheic'))).toBeNull();
    expect(sniffVideo(bytes([0, 0, 0, 0x18], 'ftypavif'))).toBeNull();
  });

  it('recognises WebM by the EBML header and its DocType, and refuses other Matroska files', () => {
    expect(sniffVideo(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], 'webm'))).toBe('webm');
    expect(sniffVideo(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88], 'matroska'))).toBeNull();
  });

  it('accepts the images of images.ts and refuses anything else', () => {
    expect(sniffMedia(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toEqual({ kind: 'image', format: 'png' });
    expect(mediaInfo({ kind: 'video', format: 'webm' })).toEqual({ mime: 'video/webm', ext: 'webm' });
    expect(sniffMedia(bytes('<!doctype html><script>alert(1)</script>'))).toBeNull();
    expect(sniffMedia(bytes([0x1a, 0x45]))).toBeNull();
    expect(sniffMedia(new Uint8Array())).toBeNull();
  });
});
