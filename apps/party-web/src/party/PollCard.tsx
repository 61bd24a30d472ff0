import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@fanfare/protocol';
import { useParty, useServices } from '../app/context.tsx';
import { resultShares, scoreboardRemainingMs } from '../rules/chat.ts';
import { isHostOrAdmin } from '../rules/roles.ts';
import { roleOf } from '../state/store.ts';
import { waitSeconds } from '../rules/slowMode.ts';
import { readsOnlyInWaitingRoom } from '../rules/waitingRoom.ts';
import { useServerNow } from './useServerNow.ts';

/** A poll or quiz question in the chat: answer once, then live results as bars. */
export function PollCard(props: { message: ChatMessage }) {
  const { t } = useTranslation();
  const services = useServices();
  const m = props.message;
  const isQuiz = m.type === 'quiz_question';
  const item = isQuiz ? m.quiz_question : m.poll;
  const id = item?.id ?? (isQuiz ? m.question_id : m.poll_id) ?? '';
  const live = useParty((s) => (isQuiz ? s.quizzes[id] : s.polls[id]));
  const answered = useParty((s) =>
    isQuiz ? s.user?.quiz_answers.find((a) => a.question_id === id)?.answer_id : s.user?.poll_answers.find((a) => a.poll_id === id)?.answer_id,
  );
  // A listener in a read-only waiting room sees the question but answers once the party starts.
  const canAnswer = useParty((s) => !!s.user && !readsOnlyInWaitingRoom(s.party?.frontend, s.status, roleOf(s)));
  // Hosts and admins follow the counts live while the question is open (the server sends them to all).
  const isHost = useParty((s) => isHostOrAdmin(roleOf(s)));
  const [error, setError] = useState(false);
  if (!item) return null;
  const results = live?.results ?? item.results;
  const closed = live?.closed ?? item.closed;
  const correct = live?.correct_answer ?? (isQuiz ? m.quiz_question?.correct_answer : null) ?? null;
  const shares = resultShares(results);
  const showResults = answered !== undefined || closed || isHost;
  const headingId = `poll-${id}`;

  const answer = async (answerId: number) => {
    setError(false);
    try {
      const api = services.api();
      const s = services.store.getState();
      if (isQuiz) {
        const res = await api.call('answerQuizQuestion', { params: { id: services.partyId, questionId: id }, body: { answer_id: answerId } });
        s.recordQuizAnswer(res);
      } else {
        const res = await api.call('answerPoll', { params: { id: services.partyId, pollId: id }, body: { answer_id: answerId } });
        s.recordPollAnswer(res);
      }
    } catch {
      setError(true);
    }
  };

  return (
    <section className={`poll${isQuiz ? ' poll--quiz' : ''}`} aria-labelledby={headingId} data-testid={isQuiz ? 'quiz' : 'poll'}>
      <p className="eyebrow">{isQuiz ? t('poll.quiz') : t('poll.poll')}</p>
      <h3 id={headingId} className="poll__question">
        {item.question}
      </h3>
      <ul className="poll__options">
        {item.options.map((option, i) => {
          const isCorrect = closed && correct === i;
          const mine = answered === i;
          return (
            <li key={i}>
              {showResults ? (
                <div className={`poll__result${mine ? ' is-mine' : ''}${isCorrect ? ' is-correct' : ''}`}>
                  <div className="poll__result-text">
                    <span>{option}</span>
                    <span>
                      {shares[i]}%{mine && <span className="sr-only"> {t('poll.yourAnswer')}</span>}
                      {isCorrect && <span className="badge badge--ok">{t('poll.correct')}</span>}
                    </span>
                  </div>
                  <div className="bar" aria-hidden="true">
                    <span style={{ width: `${shares[i]}%` }} />
                  </div>
                </div>
              ) : (
                <button type="button" className="button button--ghost button--block" disabled={!canAnswer || closed} onClick={() => void answer(i)}>
                  {option}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <p className="hint" data-testid="poll-state">
        {closed ? t('poll.closed') : answered !== undefined ? t('poll.thanks') : isHost ? t('poll.liveForHosts') : t('poll.open')}
        {' · '}
        {t('poll.answers', { count: results.reduce((a, b) => a + b, 0) })}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {t('poll.error')}
        </p>
      )}
    </section>
  );
}

/**
 * A quiz scoreboard posted to the chat: shown with the time it has left until `closes_at_ms` (the
 * host's `duration_seconds`), then gone (issue 10).
 */
export function ScoreboardCard(props: { message: ChatMessage }) {
  const { t } = useTranslation();
  const entries = props.message.scoreboard ?? [];
  const serverNow = useServerNow(props.message.closes_at_ms ?? null);
  const remainingMs = scoreboardRemainingMs(props.message, serverNow);
  if (remainingMs === 0) return null;
  return (
    <section className="poll poll--scoreboard" aria-label={t('scoreboard.title')} data-testid="scoreboard">
      <p className="eyebrow">{t('scoreboard.title')}</p>
      <ol className="scoreboard">
        {entries.map((e, i) => (
          <li key={e.user_id}>
            <span className="scoreboard__rank">{i + 1}</span>
            <span className="scoreboard__name">{e.display_name}</span>
            <span className="scoreboard__score">{t('scoreboard.points', { count: e.score })}</span>
          </li>
        ))}
      </ol>
      {entries.length === 0 && <p className="hint">{t('scoreboard.empty')}</p>}
      {remainingMs !== null && (
        <p className="hint" data-testid="scoreboard-closes">
          {t('scoreboard.closesIn', { seconds: waitSeconds(remainingMs) })}
        </p>
      )}
    </section>
  );
}
