import { useTranslation } from 'react-i18next';
import { Button } from '@fanfare/ui';
import { useParty, useServices } from '../app/context.tsx';
import { isHostOrAdmin } from '../rules/roles.ts';
import { roleOf } from '../state/store.ts';
import { ThemedModal } from './ThemedModal.tsx';
import { usePartyFont } from './usePartyFont.ts';

/**
 * Popups from hosts (spec 3): closeable or not; a restart popup reloads the app. Fans see them as
 * a modal; hosts and admins see them inside their panel instead, so a popup never covers the
 * controls that sent it.
 */
export function PopupLayer() {
  const { t } = useTranslation();
  const services = useServices();
  const font = usePartyFont();
  const popup = useParty((s) => s.popups[0] ?? null);
  const isHost = useParty((s) => isHostOrAdmin(roleOf(s)));
  if (!popup || isHost) return null;
  const close = () => services.store.getState().closePopup(popup.id);
  return (
    <ThemedModal title={t('popup.title')} onClose={close} closeable={popup.is_closeable}>
      <p className="popup__message">{popup.message}</p>
      <div className="button-row">
        {popup.is_restart && (
          <Button font={font} onClick={() => window.location.reload()}>
            {t('popup.restart')}
          </Button>
        )}
        {popup.is_closeable && (
          <Button variant="secondary" font={font} onClick={close}>
            {t('popup.ok')}
          </Button>
        )}
      </div>
    </ThemedModal>
  );
}
