import { STICKER_GLYPHS } from '@fanfare/protocol';

/** A sticker's emoji; an unknown id (a party's own sticker list may name one) shows a note. */
export function stickerGlyph(id: string | null | undefined): string {
  if (!id) return '';
  return (STICKER_GLYPHS as Record<string, string>)[id] ?? '🎵';
}
