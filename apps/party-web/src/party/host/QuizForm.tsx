import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@fanfare/ui';
import { useServices } from '../../app/context.tsx';
import { usePartyFont } from '../../ui/usePartyFont.ts';
import { DurationField } from './DurationField.tsx';
import { OptionsEditor } from './OptionsEditor.tsx';
import { usePreparedIfAny } from './prepared.tsx';
import { useHostAction } from './useHostAction.tsx';

/** Asks a quiz question (spec 3 and 5): the question, its answers, the correct one and the time to answer. */
export function QuizForm({ prepare = false }: { prepare?: boolean }) {
  const { t } = useTranslation();
  const services = useServices();
  const font = usePartyFont();
  const questionId = useId();
  const { run, busy, feedback } = useHostAction();
  const prepared = usePreparedIfAny();
  const [quiz, setQuiz] = useState({ question: '', options: ['', ''], correct: 0, duration: 30 });
  if (prepare && !prepared) throw new Error('A form that prepares for later belongs inside PreparedProvider');
  const send = async (e: FormEvent) => {
    e.preventDefault();
    const body = { question: quiz.question, options: quiz.options, correct_answer: quiz.correct, duration_seconds: quiz.duration, set_next_track: false };
    // Prepared before the party: kept on the server for this party, started from the host panel once it runs.
    const ok =
      prepared && prepare
        ? await run(() => prepared.add({ kind: 'quiz', body }), t('host.savedForLater'))
        : await run(() => services.api().call('postQuizQuestion', { params: { id: services.partyId }, body }), t('host.quizSent'));
    if (ok) setQuiz({ question: '', options: ['', ''], correct: 0, duration: quiz.duration });
  };
  return (
    <form className="form" onSubmit={(e) => void send(e)}>
      <div className="field">
        <label htmlFor={questionId}>{t('host.question')}</label>
        <input id={questionId} required value={quiz.question} onChange={(e) => setQuiz({ ...quiz, question: e.target.value })} />
      </div>
      <OptionsEditor
        name="quiz-correct"
        options={quiz.options}
        onChange={(options) => setQuiz({ ...quiz, options, correct: Math.min(quiz.correct, options.length - 1) })}
        correct={quiz.correct}
        onCorrect={(correct) => setQuiz({ ...quiz, correct })}
      />
      <DurationField value={quiz.duration} onChange={(duration) => setQuiz({ ...quiz, duration })} />
      <Button type="submit" font={font} disabled={busy}>
        {t(prepare ? 'host.saveForLater' : 'host.send')}
      </Button>
      {feedback}
    </form>
  );
}
