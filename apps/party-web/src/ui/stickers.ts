import type { DEFAULT_STICKERS } from '@fanfare/protocol';

/** How each default sticker id is drawn (an emoji; no image requests). */
export const STICKER_GLYPHS: Record<(typeof DEFAULT_STICKERS)[number], string> = {
  fire: '🔥',
  heart: '❤️',
  clap: '👏',
  party: '🎉',
  star: '⭐',
  rocket: '🚀',
  hundred: '💯',
  music: '🎵',
  headphones: '🎧',
  guitar: '🎸',
  microphone: '🎤',
  drum: '🥁',
  dance: '💃',
  sunglasses: '😎',
  laugh: '😂',
  cry: '😢',
  wow: '😮',
  love_eyes: '😍',
  thumbs_up: '👍',
  raised_hands: '🙌',
  sparkles: '✨',
  crown: '👑',
  lightning: '⚡',
  rainbow: '🌈',
};

export function stickerGlyph(id: string | null | undefined): string {
  if (!id) return '';
  return (STICKER_GLYPHS as Record<string, string>)[id] ?? '🎵';
}
