import { useTranslation } from 'react-i18next';
import { Button } from '@fanfare/ui';
import type { ActivePopup } from '../state/store.ts';
import { ThemedModal } from './ThemedModal.tsx';
import { usePartyFont } from './usePartyFont.ts';

/** A host's popup as fans see it (spec 3): closeable or not; a restart popup offers a reload. */
export default function PopupModal(props: { popup: ActivePopup; onClose: () => void }) {
  const { t } = useTranslation();
  const font = usePartyFont();
  const { popup } = props;
  return (
    <ThemedModal title={t('popup.title')} onClose={props.onClose} closeable={popup.is_closeable}>
      <p className="popup__message">{popup.message}</p>
      <div className="button-row">
        {popup.is_restart && (
          <Button font={font} onClick={() => window.location.reload()}>
            {t('popup.restart')}
          </Button>
        )}
        {popup.is_closeable && (
          <Button variant="secondary" font={font} onClick={props.onClose}>
            {t('popup.ok')}
          </Button>
        )}
      </div>
    </ThemedModal>
  );
}
