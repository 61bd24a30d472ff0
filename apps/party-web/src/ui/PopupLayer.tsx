import { useTranslation } from 'react-i18next';
import { useParty, useServices } from '../app/context.tsx';
import { Modal } from './Modal.tsx';

/** Popups from hosts (spec 3): closeable or not; a restart popup reloads the app. */
export function PopupLayer() {
  const { t } = useTranslation();
  const services = useServices();
  const popup = useParty((s) => s.popups[0] ?? null);
  if (!popup) return null;
  const close = () => services.store.getState().closePopup(popup.id);
  return (
    <Modal title={t('popup.title')} onClose={close} closeable={popup.is_closeable}>
      <p className="popup__message">{popup.message}</p>
      <div className="button-row">
        {popup.is_restart && (
          <button type="button" className="button" onClick={() => window.location.reload()}>
            {t('popup.restart')}
          </button>
        )}
        {popup.is_closeable && (
          <button type="button" className="button button--ghost" onClick={close}>
            {t('popup.ok')}
          </button>
        )}
      </div>
    </Modal>
  );
}
