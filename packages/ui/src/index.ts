/** Shared React pieces of the campaign spec (section 2, constants of section 9). */
export { Button, buttonFontSizePx, type ButtonProps } from './Button.tsx';
export { Headline, Paragraph, type HeadlineProps, type ParagraphProps } from './Text.tsx';
export { Card, type CardProps } from './Card.tsx';
export { FullScreenModal, type FullScreenModalProps } from './Modal.tsx';
export { Icon, ICON_NAMES, deviceIcon, type IconName, type IconProps } from './icons.tsx';
export { ServiceIconRow, ProviderBadge, SERVICE_NAMES, serviceIcon } from './services.tsx';
export { NO_SCROLL_CLASS, lockBodyScroll, useNoScroll } from './noScroll.ts';
export { FONT_CHOICES, FONT_STACKS, fontStack, type FontChoice } from './fonts.ts';
