import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@fanfare/ui';
import { PLAYER_SERVICES, type PlayerService } from '@fanfare/protocol';
import { useServices } from '../../app/context.tsx';
import { usePartyFont } from '../../ui/usePartyFont.ts';
import { useHostAction } from './useHostAction.tsx';

const EMPTY_POPUP = { message: '', service: '', free_only: false, is_closeable: true, is_restart: false };

/** Sends a popup to the fans (spec 3 and 7): text, target service, free-only, closeable, restart. */
export function PopupForm() {
  const { t } = useTranslation();
  const services = useServices();
  const font = usePartyFont();
  const messageId = useId();
  const serviceId = useId();
  const { run, busy, feedback } = useHostAction();
  const [popup, setPopup] = useState(EMPTY_POPUP);
  const send = async (e: FormEvent) => {
    e.preventDefault();
    const ok = await run(
      () =>
        services.api().call('postPopup', {
          params: { id: services.partyId },
          // A popup's service is omitted if empty (spec 5).
          body: {
            message: popup.message,
            free_only: popup.free_only,
            is_closeable: popup.is_closeable,
            is_restart: popup.is_restart,
            ...(popup.service ? { service: popup.service as PlayerService } : {}),
          },
        }),
      t('host.popupSent'),
    );
    if (ok) setPopup({ ...popup, message: '' });
  };
  return (
    <form className="form" onSubmit={(e) => void send(e)}>
      <div className="field">
        <label htmlFor={messageId}>{t('host.popupMessage')}</label>
        <textarea id={messageId} required value={popup.message} onChange={(e) => setPopup({ ...popup, message: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={serviceId}>{t('host.popupService')}</label>
        <select id={serviceId} value={popup.service} onChange={(e) => setPopup({ ...popup, service: e.target.value })}>
          <option value="">{t('host.allServices')}</option>
          {PLAYER_SERVICES.map((s) => (
            <option key={s} value={s}>
              {t(`service.name.${s}`)}
            </option>
          ))}
        </select>
      </div>
      {(['free_only', 'is_closeable', 'is_restart'] as const).map((k) => (
        <label key={k} className="field field--check">
          <input type="checkbox" checked={popup[k]} onChange={(e) => setPopup({ ...popup, [k]: e.target.checked })} />
          <span>{t(`host.popup.${k}`)}</span>
        </label>
      ))}
      <Button type="submit" font={font} disabled={busy}>
        {t('host.send')}
      </Button>
      {feedback}
    </form>
  );
}
