import type { ReactNode } from 'react';
import { CARD_DEFAULT } from '@fanfare/protocol';
import { Button } from './Button.tsx';
import type { FontChoice } from './fonts.ts';

export type CardProps = {
  /** Optional text shown on the card. */
  text?: ReactNode;
  /** Label of the optional button; the button shows only with a label and `onButtonClick`. */
  buttonLabel?: string;
  /** Emitted when the card's button is clicked (spec 2). */
  onButtonClick?: () => void;
  /** Optional background image URL. */
  image?: string | null;
  /** CSS height; 285px by default (spec 9). */
  height?: string;
  /** CSS corner radius; 20px by default (spec 9). */
  borderRadius?: string;
  font?: FontChoice | null;
  children?: ReactNode;
  className?: string;
};

/** A card with optional text and a button that emits a click (spec 2), 285 px high with 20 px corners (spec 9). */
export function Card({ text, buttonLabel, onButtonClick, image, height = CARD_DEFAULT.height, borderRadius = CARD_DEFAULT.borderRadius, font, children, className }: CardProps) {
  return (
    <div
      className={['ffui-card', image ? 'ffui-card--image' : '', className ?? ''].filter(Boolean).join(' ')}
      style={{ height, borderRadius, ...(image ? { backgroundImage: `url(${JSON.stringify(image)})` } : {}) }}
    >
      {text !== undefined && <div className="ffui-card__text">{text}</div>}
      {children}
      {buttonLabel && onButtonClick && (
        <Button font={font} onClick={onButtonClick} className="ffui-card__button">
          {buttonLabel}
        </Button>
      )}
    </div>
  );
}
