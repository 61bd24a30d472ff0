import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@fanfare/ui';
import { SCOREBOARD_DEFAULT_COUNT } from '@fanfare/protocol';
import { useServices } from '../../app/context.tsx';
import { usePartyFont } from '../../ui/usePartyFont.ts';
import { useHostAction } from './useHostAction.tsx';

/** Posts the quiz leaderboard to the chat (spec 5): how many places, shown for how long. */
export function ScoreboardForm() {
  const { t } = useTranslation();
  const services = useServices();
  const font = usePartyFont();
  const countId = useId();
  const durationId = useId();
  const { run, busy, feedback } = useHostAction();
  const [board, setBoard] = useState({ count: SCOREBOARD_DEFAULT_COUNT, duration: 30 });
  const send = async (e: FormEvent) => {
    e.preventDefault();
    await run(
      () => services.api().call('postScoreboard', { params: { id: services.partyId }, body: { count: board.count, duration_seconds: board.duration } }),
      t('host.scoreboardSent'),
    );
  };
  return (
    <form className="form" onSubmit={(e) => void send(e)}>
      <div className="field">
        <label htmlFor={countId}>{t('host.count')}</label>
        <input id={countId} type="number" min={1} max={100} value={board.count} onChange={(e) => setBoard({ ...board, count: Number(e.target.value) })} />
      </div>
      <div className="field">
        <label htmlFor={durationId}>{t('host.duration')}</label>
        <input id={durationId} type="number" min={5} max={3600} value={board.duration} onChange={(e) => setBoard({ ...board, duration: Number(e.target.value) })} />
      </div>
      <Button type="submit" font={font} disabled={busy}>
        {t('host.send')}
      </Button>
      {feedback}
    </form>
  );
}
