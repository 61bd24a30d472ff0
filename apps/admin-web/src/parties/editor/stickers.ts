import type { DEFAULT_STICKERS } from '@fanfare/protocol';

/**
 * How the party app draws each default sticker (apps/party-web/src/ui/stickers.ts): the same
 * emoji, so the editor's choice looks like what fans see.
 */
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
