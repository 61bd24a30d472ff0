import type { HTMLAttributes, ReactNode } from 'react';

export type HeadlineProps = HTMLAttributes<HTMLHeadingElement> & {
  /** The heading level in the page outline (1 to 4); the look follows the level. */
  level?: 1 | 2 | 3 | 4;
  children: ReactNode;
};

/** A campaign headline (spec 2), in the campaign's font. */
export function Headline({ level = 2, className, ...rest }: HeadlineProps) {
  const Tag = `h${level}` as const;
  return <Tag className={['ffui-headline', `ffui-headline--${level}`, className ?? ''].filter(Boolean).join(' ')} {...rest} />;
}

export type ParagraphProps = HTMLAttributes<HTMLParagraphElement> & { children: ReactNode; muted?: boolean };

/** A campaign paragraph (spec 2). */
export function Paragraph({ muted = false, className, ...rest }: ParagraphProps) {
  return <p className={['ffui-paragraph', muted ? 'ffui-paragraph--muted' : '', className ?? ''].filter(Boolean).join(' ')} {...rest} />;
}
