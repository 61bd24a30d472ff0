import type { SVGProps } from 'react';

/**
 * The icon set of spec 2: streaming providers, arrows, hamburger menu, ticket, play, pause, check,
 * device types (smartphone, laptop, speaker, console), camera, sticker, social networks and video,
 * plus the player's previous/next/volume and a close cross. 24×24 outlines drawn in `currentColor`,
 * so an icon takes the colour of its text.
 */
const PATHS = {
  spotify: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm4.6 14.4a.8.8 0 0 1-1.1.3c-3-1.8-6.7-2.2-11.1-1.2a.8.8 0 1 1-.3-1.5c4.8-1.1 8.9-.6 12.2 1.3.4.2.5.7.3 1.1Zm1.2-2.9a1 1 0 0 1-1.3.3c-3.4-2.1-8.6-2.7-12.6-1.5a1 1 0 0 1-.6-1.8c4.6-1.4 10.3-.7 14.2 1.7.5.3.6.9.3 1.3Zm.1-3C14 8.2 7.5 8 3.8 9.1a1.2 1.2 0 1 1-.7-2.3C7.4 5.6 14.6 5.8 19.1 8.5a1.2 1.2 0 0 1-1.2 2Z',
  apple: 'M16.4 12.6c0-2.4 2-3.6 2.1-3.7a4.5 4.5 0 0 0-3.6-1.9c-1.5-.2-3 .9-3.7.9-.8 0-2-.9-3.2-.9a4.8 4.8 0 0 0-4 2.5c-1.8 3-.5 7.5 1.2 10 .8 1.2 1.8 2.6 3.1 2.5 1.2 0 1.7-.8 3.2-.8s1.9.8 3.2.8c1.3 0 2.2-1.2 3-2.4a10 10 0 0 0 1.4-2.8 4.3 4.3 0 0 1-2.7-4.2ZM14 5.5A4.2 4.2 0 0 0 15 2.4a4.4 4.4 0 0 0-2.9 1.5 4 4 0 0 0-1 3 3.7 3.7 0 0 0 2.9-1.4Z',
  arrowLeft: 'M15.4 5.4 14 4l-8 8 8 8 1.4-1.4L8.8 12z',
  arrowRight: 'M8.6 5.4 10 4l8 8-8 8-1.4-1.4 6.6-6.6z',
  arrowUp: 'M5.4 15.4 4 14l8-8 8 8-1.4 1.4L12 8.8z',
  arrowDown: 'M5.4 8.6 4 10l8 8 8-8-1.4-1.4L12 15.2z',
  hamburger: 'M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z',
  close: 'M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6 10.6 12 5 6.4z',
  ticket: 'M3 6h18v4a2 2 0 0 0 0 4v4H3v-4a2 2 0 0 0 0-4V6Zm2 2v.6a4 4 0 0 1 0 6.8v.6h14v-.6a4 4 0 0 1 0-6.8V8H5Zm5 1h2v2h-2zm0 4h2v2h-2z',
  play: 'M8 5v14l11-7z',
  pause: 'M6 5h4v14H6zm8 0h4v14h-4z',
  previous: 'M6 6h2v12H6zm3.5 6 8.5 6V6z',
  next: 'M16 6h2v12h-2zM6 18l8.5-6L6 6z',
  volume: 'M3 9v6h4l5 5V4L7 9H3Zm13.5 3A4.5 4.5 0 0 0 14 8v8a4.5 4.5 0 0 0 2.5-4ZM14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6Z',
  check: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z',
  smartphone: 'M7 2h10a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2Zm0 3v13h10V5H7Zm4 14v1h2v-1h-2Z',
  laptop: 'M4 5a1 1 0 0 1 1-1h14a1 1 0 0 1 1 1v10H4V5Zm2 1v7h12V6H6ZM2 17h20v1.5a1.5 1.5 0 0 1-1.5 1.5h-17A1.5 1.5 0 0 1 2 18.5V17Z',
  speaker: 'M7 2h10a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2Zm5 2.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3ZM12 10a4 4 0 1 0 0 8 4 4 0 0 0 0-8Zm0 2a2 2 0 1 1 0 4 2 2 0 0 1 0-4Z',
  console: 'M7 7h10a5 5 0 0 1 0 10c-1.5 0-2.3-1-3-2h-4c-.7 1-1.5 2-3 2A5 5 0 0 1 7 7Zm0 3v1.5H5.5v1H7V14h1v-1.5h1.5v-1H8V10H7Zm8.5.5a1 1 0 1 0 0 2 1 1 0 0 0 0-2Zm2 2a1 1 0 1 0 0 2 1 1 0 0 0 0-2Z',
  camera: 'M9 3h6l1.8 2H20a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2h3.2L9 3Zm3 5a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9Zm0 2a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5Z',
  sticker: 'M5 3h14a2 2 0 0 1 2 2v9l-7 7H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2Zm0 2v14h8v-5a1 1 0 0 1 1-1h5V5H5Zm10 10v3.2l3.2-3.2H15ZM9 8a1.2 1.2 0 1 1 0 2.4A1.2 1.2 0 0 1 9 8Zm6 0a1.2 1.2 0 1 1 0 2.4A1.2 1.2 0 0 1 15 8Zm-6.5 4h7a3.5 3.5 0 0 1-7 0Z',
  video: 'M3 6a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2v3l4-3v12l-4-3v3a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6Z',
  instagram: 'M7.5 2h9A5.5 5.5 0 0 1 22 7.5v9a5.5 5.5 0 0 1-5.5 5.5h-9A5.5 5.5 0 0 1 2 16.5v-9A5.5 5.5 0 0 1 7.5 2Zm0 2A3.5 3.5 0 0 0 4 7.5v9A3.5 3.5 0 0 0 7.5 20h9a3.5 3.5 0 0 0 3.5-3.5v-9A3.5 3.5 0 0 0 16.5 4h-9ZM12 7a5 5 0 1 1 0 10 5 5 0 0 1 0-10Zm0 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6Zm5.3-3.4a1.1 1.1 0 1 1 0 2.2 1.1 1.1 0 0 1 0-2.2Z',
  facebook: 'M13.5 22v-8h2.7l.4-3.2h-3.1v-2c0-.9.3-1.5 1.6-1.5h1.7V4.4a22 22 0 0 0-2.5-.1c-2.4 0-4.1 1.5-4.1 4.2v2.3H7.5V14h2.7v8h3.3Z',
  tiktok: 'M16.6 3a4.8 4.8 0 0 0 4 4.1v3.2a8 8 0 0 1-4-1.3v6.5A6 6 0 1 1 10.5 9.5v3.3a2.8 2.8 0 1 0 2.9 2.8V3h3.2Z',
  youtube: 'M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4A2.5 2.5 0 0 0 2.4 7.2 26 26 0 0 0 2 12a26 26 0 0 0 .4 4.8 2.5 2.5 0 0 0 1.8 1.8c1.6.4 7.8.4 7.8.4s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8A26 26 0 0 0 22 12a26 26 0 0 0-.4-4.8ZM10 15V9l5.2 3L10 15Z',
  x: 'M17.8 3h3.1l-6.8 7.7L22 21h-6.2l-4.9-6.4L5.3 21H2.2l7.2-8.3L1.9 3h6.4l4.4 5.8L17.8 3Zm-1.1 16.2h1.7L7.4 4.7H5.6l11.1 14.5Z',
} as const;

/** Every icon's name. */
export type IconName = keyof typeof PATHS;
export const ICON_NAMES = Object.keys(PATHS) as IconName[];

/** The device types of the device picker (spec 3 "Device".type), mapped to icons; others show a speaker. */
export function deviceIcon(type: string): IconName {
  const t = type.toLowerCase();
  if (t === 'smartphone' || t === 'tablet') return 'smartphone';
  if (t === 'computer' || t === 'laptop') return 'laptop';
  if (t === 'gameconsole' || t === 'game_console' || t === 'console') return 'console';
  return 'speaker';
}

export type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'> & {
  name: IconName;
  /** Pixel size of both sides; 24 by default. */
  size?: number;
  /** An accessible name; without it the icon is decorative and hidden from screen readers. */
  label?: string;
};

/** One icon of the set. Decorative unless it has a `label`. */
export function Icon({ name, size = 24, label, ...rest }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="currentColor"
      focusable="false"
      data-icon={name}
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      {...rest}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
