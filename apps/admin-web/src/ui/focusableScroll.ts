/**
 * Props for `Table.ScrollContainer`: a wide table scrolls sideways in its own box on a phone, and
 * that box takes keyboard focus so it can be scrolled with the arrow keys (axe:
 * scrollable-region-focusable).
 */
export const FOCUSABLE_SCROLL = { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } as const;
