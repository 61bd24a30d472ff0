import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@fanfare/ui';
import { CHAT_SLOW_MODE_MAX_SECONDS } from '@fanfare/protocol';
import { useParty, useServices } from '../../app/context.tsx';
import { usePartyFont } from '../../ui/usePartyFont.ts';
import { useHostAction } from './useHostAction.tsx';

/** Party-wide slow mode: one message per this many seconds per listener; 0 switches it off. */
export function SlowModeForm() {
  const { t } = useTranslation();
  const services = useServices();
  const font = usePartyFont();
  const secondsId = useId();
  const { run, busy, feedback } = useHostAction();
  const current = useParty((s) => s.party?.frontend.chatSlowModeSeconds ?? 0);
  // Null while the host has not typed: the field follows the party's setting.
  const [draft, setDraft] = useState<number | null>(null);
  const send = async (e: FormEvent) => {
    e.preventDefault();
    const seconds = draft ?? current;
    await run(async () => {
      const res = await services.api().call('setSlowMode', { params: { id: services.partyId }, body: { seconds } });
      const party = services.store.getState().party;
      if (party) services.store.getState().set({ party: { ...party, frontend: { ...party.frontend, chatSlowModeSeconds: res.seconds } } });
      setDraft(null);
    }, seconds > 0 ? t('host.slowModeOn', { seconds }) : t('host.slowModeOff'));
  };
  return (
    <form className="form" onSubmit={(e) => void send(e)}>
      <div className="field">
        <label htmlFor={secondsId}>{t('host.slowModeSeconds')}</label>
        <input
          id={secondsId}
          type="number"
          min={0}
          max={CHAT_SLOW_MODE_MAX_SECONDS}
          value={draft ?? current}
          onChange={(e) => setDraft(Math.max(0, Math.min(CHAT_SLOW_MODE_MAX_SECONDS, Math.round(Number(e.target.value) || 0))))}
        />
      </div>
      <Button type="submit" font={font} disabled={busy}>
        {t('host.slowModeApply')}
      </Button>
      {feedback}
    </form>
  );
}
