import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FullScreenModal } from '@fanfare/ui';

/**
 * `@fanfare/ui`'s modal (focus moves in, Tab stays inside, Escape closes, scroll lock shared by
 * stacked overlays) in the party's theme: a panel in the party's colours over the dimmed page.
 * A tap beside the panel closes it too, unless it may not be closed.
 */
export type ThemedModalProps = { title: string; onClose: () => void; children: ReactNode; wide?: boolean; closeable?: boolean };

export function ThemedModal(props: ThemedModalProps) {
  const { t } = useTranslation();
  const isCloseable = props.closeable ?? true;
  // The overlay is the modal's own backdrop element: a press there is a press beside the panel.
  const onBackdrop = (e: MouseEvent) => {
    if (isCloseable && e.target instanceof Element && e.target.classList.contains('ffui-modal__overlay')) props.onClose();
  };
  return (
    <div className={`party-modal${props.wide ? ' party-modal--wide' : ''}`} onMouseDown={onBackdrop}>
      <FullScreenModal title={props.title} onClose={isCloseable ? props.onClose : undefined} closeLabel={t('common.close')}>
        <div className="party-modal__body">{props.children}</div>
      </FullScreenModal>
    </div>
  );
}

export default ThemedModal;
