import { useTranslation } from 'react-i18next';
import { useParty, useServices } from '../../app/context.tsx';

/**
 * The popups fans see right now, shown to hosts inside their panel instead of as a modal: a
 * host's own popup must never cover the host controls (it may not even be closeable).
 */
export function SentPopupNotice() {
  const { t } = useTranslation();
  const services = useServices();
  const popups = useParty((s) => s.popups);
  if (popups.length === 0) return null;
  return (
    <div className="sent-popups" role="status" aria-label={t('host.popupLiveTitle')} data-testid="sent-popups">
      <ul className="plain-list">
        {popups.map((p) => (
          <li key={p.id} className="sent-popups__item">
            <p className="sent-popups__text">
              <strong>{t('host.popupLive')}</strong> {p.message}
            </p>
            <button type="button" className="button button--small button--ghost" onClick={() => services.store.getState().closePopup(p.id)} aria-label={t('host.popupHideLabel', { message: p.message })}>
              {t('host.popupHide')}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
