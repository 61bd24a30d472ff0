import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { MODAL_OVERLAY_OPACITY_DEFAULT } from '@fanfare/protocol';
import { Icon } from './icons.tsx';
import { useNoScroll } from './noScroll.ts';

export type FullScreenModalProps = {
  /** The dialog's accessible name, shown as its heading. */
  title: string;
  /** Hide the heading visually (it still names the dialog). */
  hideTitle?: boolean;
  /** With `onClose` the modal shows a close control and closes on Escape (spec 2 "optional close control"). */
  onClose?: () => void;
  /** Accessible label of the close control. */
  closeLabel?: string;
  /** A background image, shown blurred under the overlay. */
  backgroundImage?: string | null;
  /** Opacity of the dark overlay over the background, 0 to 1 (default 0.6, spec 9). */
  overlayOpacity?: number;
  children: ReactNode;
};

const FOCUSABLE = 'a[href],button:not([disabled]),input:not([disabled]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

/**
 * A full-screen modal (spec 2): optional close control, blurred background image under an overlay
 * of `overlayOpacity` (default 0.6). While open the body has the `no-scroll` class; focus moves
 * into the dialog, Tab stays inside, and focus returns where it was on close.
 */
export function FullScreenModal({ title, hideTitle = false, onClose, closeLabel = 'Close', backgroundImage, overlayOpacity = MODAL_OVERLAY_OPACITY_DEFAULT, children }: FullScreenModalProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  // The key handler reads the latest onClose without re-subscribing.
  useLayoutEffect(() => {
    close.current = onClose;
  });
  useNoScroll();

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    ref.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && close.current) {
        e.preventDefault();
        close.current();
      } else if (e.key === 'Tab' && ref.current) {
        // Keep keyboard focus inside the dialog.
        const items = Array.from(ref.current.querySelectorAll<HTMLElement>(FOCUSABLE));
        if (items.length === 0) return;
        const first = items[0]!;
        const last = items[items.length - 1]!;
        if (e.shiftKey && (document.activeElement === first || document.activeElement === ref.current)) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, []);

  return (
    <div className="ffui-modal" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} ref={ref}>
      {backgroundImage && <div className="ffui-modal__background" style={{ backgroundImage: `url(${JSON.stringify(backgroundImage)})` }} aria-hidden="true" />}
      <div className="ffui-modal__overlay" style={{ opacity: overlayOpacity }} aria-hidden="true" data-testid="ffui-modal-overlay" />
      <div className="ffui-modal__content">
        <div className="ffui-modal__head">
          <h2 id={titleId} className={hideTitle ? 'ffui-visually-hidden' : 'ffui-headline ffui-headline--2'}>
            {title}
          </h2>
          {onClose && (
            <button type="button" className="ffui-icon-button ffui-modal__close" onClick={onClose} aria-label={closeLabel}>
              <Icon name="close" />
            </button>
          )}
        </div>
        {children}
      </div>
    </div>
  );
}
