import { useEffect } from 'react';

/** The class overlays put on the page body while they are open (spec 2). */
export const NO_SCROLL_CLASS = 'no-scroll';

const COUNT_ATTR = 'data-ffui-overlays';

/**
 * Marks one more overlay as open: adds `no-scroll` to the body. Returns the release function,
 * which removes the class once the last open overlay is released, so two stacked overlays do not
 * unlock scrolling when the top one closes. The count lives on the body, not in a module variable.
 */
export function lockBodyScroll(doc: Document = document): () => void {
  const body = doc.body;
  const open = Number(body.getAttribute(COUNT_ATTR) ?? '0') + 1;
  body.setAttribute(COUNT_ATTR, String(open));
  body.classList.add(NO_SCROLL_CLASS);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = Math.max(0, Number(body.getAttribute(COUNT_ATTR) ?? '1') - 1);
    if (left === 0) {
      body.removeAttribute(COUNT_ATTR);
      body.classList.remove(NO_SCROLL_CLASS);
    } else body.setAttribute(COUNT_ATTR, String(left));
  };
}

/** Adds `no-scroll` to the body while `active` (default true) and the component is mounted. */
export function useNoScroll(active = true): void {
  useEffect(() => (active ? lockBodyScroll() : undefined), [active]);
}
