import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@fanfare/ui';
import { useServices } from '../../app/context.tsx';
import { usePartyFont } from '../../ui/usePartyFont.ts';
import { DurationField } from './DurationField.tsx';
import { OptionsEditor } from './OptionsEditor.tsx';
import { usePreparedIfAny } from './prepared.tsx';
import { useHostAction } from './useHostAction.tsx';

/** Starts a poll (spec 3 and 5): a question, 2 to 10 answers and how long it stays open. */
export function PollForm({ prepare = false }: { prepare?: boolean }) {
  const { t } = useTranslation();
  const services = useServices();
  const font = usePartyFont();
  const questionId = useId();
  const { run, busy, feedback } = useHostAction();
  const prepared = usePreparedIfAny();
  const [poll, setPoll] = useState({ question: '', options: ['', ''], duration: 60 });
  if (prepare && !prepared) throw new Error('A form that prepares for later belongs inside PreparedProvider');
  const send = async (e: FormEvent) => {
    e.preventDefault();
    // Polls and quizzes are created with set_next_track false (spec 5).
    const body = { question: poll.question, options: poll.options, duration_seconds: poll.duration, set_next_track: false };
    // Prepared before the party: kept on the server for this party, started from the host panel once it runs.
    const ok =
      prepared && prepare
        ? await run(() => prepared.add({ kind: 'poll', body }), t('host.savedForLater'))
        : await run(() => services.api().call('postPoll', { params: { id: services.partyId }, body }), t('host.pollSent'));
    if (ok) setPoll({ question: '', options: ['', ''], duration: poll.duration });
  };
  return (
    <form className="form" onSubmit={(e) => void send(e)}>
      <div className="field">
        <label htmlFor={questionId}>{t('host.question')}</label>
        <input id={questionId} required value={poll.question} onChange={(e) => setPoll({ ...poll, question: e.target.value })} />
      </div>
      <OptionsEditor name="poll" options={poll.options} onChange={(options) => setPoll({ ...poll, options })} />
      <DurationField value={poll.duration} onChange={(duration) => setPoll({ ...poll, duration })} />
      <Button type="submit" font={font} disabled={busy}>
        {t(prepare ? 'host.saveForLater' : 'host.send')}
      </Button>
      {feedback}
    </form>
  );
}
