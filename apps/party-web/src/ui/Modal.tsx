import { useEffect, useEffectEvent, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** An accessible modal dialog: labelled, Escape and backdrop close it, focus moves in and back. */
export function Modal(props: { title: string; onClose: () => void; children: ReactNode; wide?: boolean; closeable?: boolean }) {
  const { t } = useTranslation();
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const closeable = props.closeable ?? true;
  const close = useEffectEvent(() => {
    if (closeable) props.onClose();
  });
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    ref.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    document.addEventListener('keydown', onKey);
    document.body.classList.add('no-scroll');
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.classList.remove('no-scroll');
      previous?.focus?.();
    };
  }, []);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && closeable && props.onClose()}>
      <div className={`modal${props.wide ? ' modal--wide' : ''}`} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} ref={ref}>
        <div className="modal__head">
          <h2 id={titleId}>{props.title}</h2>
          {closeable && (
            <button type="button" className="icon-button" onClick={props.onClose} aria-label={t('common.close')}>
              ✕
            </button>
          )}
        </div>
        <div className="modal__body">{props.children}</div>
      </div>
    </div>
  );
}
