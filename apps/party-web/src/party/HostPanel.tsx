import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@fanfare/client';
import { CHAT_SLOW_MODE_MAX_SECONDS, PLAYER_SERVICES, POLL_OPTIONS_MAX, POLL_OPTIONS_MIN, SCOREBOARD_DEFAULT_COUNT } from '@fanfare/protocol';
import { useParty, useServices } from '../app/context.tsx';
import { canStart, isHostOrAdmin } from '../rules/roles.ts';
import { isAlbumFinished } from '../rules/sync.ts';
import { roleOf } from '../state/store.ts';

/** The words for a failed host action: not allowed, the server's reason for a conflict, or a failure. */
function failureText(err: unknown, t: (key: string, o?: Record<string, unknown>) => string): string {
  if (!(err instanceof ApiError)) return t('host.failed');
  if (err.status === 401 || err.status === 403) return t('host.notAllowed');
  const detail = typeof err.body === 'object' && err.body && typeof err.body.detail === 'string' ? err.body.detail : null;
  if (err.status === 409 && detail) return t('host.conflict', { detail });
  return t('host.failed');
}

/**
 * Runs a host action and reports its outcome in words. `context` names the state the outcome
 * belongs to (e.g. running or stopped): once the state moved on, the old message is not shown, so
 * "The party is stopped." never sits next to a Stop button after a later start.
 */
function useAction(context = '') {
  const { t } = useTranslation();
  const [message, setMessage] = useState<{ ok: boolean; text: string; context: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>, done: string, doneContext = context) => {
    setBusy(true);
    setMessage(null);
    try {
      await action();
      setMessage({ ok: true, text: done, context: doneContext });
      return true;
    } catch (err) {
      setMessage({ ok: false, text: failureText(err, t), context });
      return false;
    } finally {
      setBusy(false);
    }
  };
  const feedback = message && message.context === context && (
    <p className={message.ok ? 'form-ok' : 'form-error'} role={message.ok ? 'status' : 'alert'}>
      {message.text}
    </p>
  );
  return { run, busy, feedback };
}

/** Start button for the roles startAllowed names (spec 4 and 6), shown while the party is not running. */
export function HostStartButton() {
  const { t } = useTranslation();
  const services = useServices();
  const allowed = useParty((s) => canStart(roleOf(s), s.party?.frontend.partyStartAllowed));
  const running = useParty((s) => !!s.status && !s.status.is_paused);
  const isFinished = useParty((s) => isAlbumFinished(s.status, s.tracks));
  const { run, busy, feedback } = useAction(running ? 'running' : 'stopped');
  if (!allowed || running) return null;
  // A finished album cannot start again (the server answers 409): say why instead of offering it.
  if (isFinished) {
    return (
      <p className="hint host-start" role="note" data-testid="host-finished">
        {t('host.finishedCannotStart')}
      </p>
    );
  }
  const start = () =>
    run(
      async () => {
        const res = await services.api().call('startParty', { params: { id: services.partyId } });
        services.store.getState().applyRunState(res);
      },
      t('host.started'),
      'running',
    );
  return (
    <div className="host-start">
      <button type="button" className="button button--large" disabled={busy} onClick={() => void start()}>
        {t('host.start')}
      </button>
      {feedback}
    </div>
  );
}

function Section(props: { title: string; children: ReactNode }) {
  return (
    <details className="host-section">
      <summary>{props.title}</summary>
      <div className="host-section__body">{props.children}</div>
    </details>
  );
}

/** Option inputs for polls and quizzes (2 to 10). */
function OptionsEditor(props: { options: string[]; onChange: (o: string[]) => void; correct?: number; onCorrect?: (i: number) => void; name: string }) {
  const { t } = useTranslation();
  return (
    <fieldset className="field">
      <legend>{t('host.options')}</legend>
      {props.options.map((o, i) => (
        <div className="option-row" key={i}>
          {props.onCorrect && (
            <input type="radio" name={props.name} checked={props.correct === i} onChange={() => props.onCorrect!(i)} aria-label={t('host.correctOption', { n: i + 1 })} />
          )}
          <input
            aria-label={t('host.option', { n: i + 1 })}
            value={o}
            required
            onChange={(e) => props.onChange(props.options.map((x, j) => (j === i ? e.target.value : x)))}
          />
          {props.options.length > POLL_OPTIONS_MIN && (
            <button type="button" className="icon-button" aria-label={t('host.removeOption', { n: i + 1 })} onClick={() => props.onChange(props.options.filter((_, j) => j !== i))}>
              ✕
            </button>
          )}
        </div>
      ))}
      {props.options.length < POLL_OPTIONS_MAX && (
        <button type="button" className="link-button" onClick={() => props.onChange([...props.options, ''])}>
          {t('host.addOption')}
        </button>
      )}
    </fieldset>
  );
}

/**
 * Host and admin controls inside the app (spec 6): start, stop, end, popups, polls, quizzes,
 * scoreboards and the blocked fans. The server checks every action again.
 */
export function HostPanel() {
  const { t } = useTranslation();
  const services = useServices();
  const role = useParty((s) => roleOf(s));
  const blocked = useParty((s) => s.blockedUsers);
  const running = useParty((s) => !!s.status && !s.status.is_paused);
  const ids = { popup: useId(), service: useId(), question: useId(), duration: useId(), qquestion: useId(), qduration: useId(), count: useId(), sduration: useId(), slow: useId() };
  const control = useAction(running ? 'running' : 'stopped');
  const popupAction = useAction();
  const pollAction = useAction();
  const quizAction = useAction();
  const scoreAction = useAction();
  const slowAction = useAction();
  const slowSeconds = useParty((s) => s.party?.frontend.chatSlowModeSeconds ?? 0);
  const [slow, setSlow] = useState<number | null>(null);
  const [popup, setPopup] = useState({ message: '', service: '', free_only: false, is_closeable: true, is_restart: false });
  const [poll, setPoll] = useState({ question: '', options: ['', ''], duration: 60 });
  const [quiz, setQuiz] = useState({ question: '', options: ['', ''], correct: 0, duration: 30 });
  const [board, setBoard] = useState({ count: SCOREBOARD_DEFAULT_COUNT, duration: 30 });
  if (!isHostOrAdmin(role)) return null;
  const id = services.partyId;
  const api = () => services.api();

  const stop = () =>
    control.run(
      async () => {
        const res = await api().call('stopParty', { params: { id } });
        services.store.getState().applyRunState(res);
      },
      t('host.stopped'),
      'stopped',
    );
  const end = () =>
    control.run(async () => {
      if (!window.confirm(t('host.endConfirm'))) return;
      const res = await api().call('endParty', { params: { id } });
      services.store.getState().applyPartyEnded(res.ends_at);
    }, t('host.ended'));
  const sendPopup = async (e: FormEvent) => {
    e.preventDefault();
    const ok = await popupAction.run(
      () =>
        api().call('postPopup', {
          params: { id },
          // A popup's service is omitted if empty (spec 5).
          body: { message: popup.message, free_only: popup.free_only, is_closeable: popup.is_closeable, is_restart: popup.is_restart, ...(popup.service ? { service: popup.service as 'spotify' } : {}) },
        }),
      t('host.popupSent'),
    );
    if (ok) setPopup({ ...popup, message: '' });
  };
  const sendPoll = async (e: FormEvent) => {
    e.preventDefault();
    // Polls and quizzes are created with set_next_track false (spec 5).
    const ok = await pollAction.run(
      () => api().call('postPoll', { params: { id }, body: { question: poll.question, options: poll.options, duration_seconds: poll.duration, set_next_track: false } }),
      t('host.pollSent'),
    );
    if (ok) setPoll({ question: '', options: ['', ''], duration: poll.duration });
  };
  const sendQuiz = async (e: FormEvent) => {
    e.preventDefault();
    const ok = await quizAction.run(
      () =>
        api().call('postQuizQuestion', {
          params: { id },
          body: { question: quiz.question, options: quiz.options, correct_answer: quiz.correct, duration_seconds: quiz.duration, set_next_track: false },
        }),
      t('host.quizSent'),
    );
    if (ok) setQuiz({ question: '', options: ['', ''], correct: 0, duration: quiz.duration });
  };
  const sendBoard = async (e: FormEvent) => {
    e.preventDefault();
    await scoreAction.run(() => api().call('postScoreboard', { params: { id }, body: { count: board.count, duration_seconds: board.duration } }), t('host.scoreboardSent'));
  };
  /** Party-wide slow mode (issue 10): one message per this many seconds per listener; 0 switches it off. */
  const sendSlowMode = async (e: FormEvent) => {
    e.preventDefault();
    const seconds = slow ?? slowSeconds;
    await slowAction.run(async () => {
      const res = await api().call('setSlowMode', { params: { id }, body: { seconds } });
      const party = services.store.getState().party;
      if (party) services.store.getState().set({ party: { ...party, frontend: { ...party.frontend, chatSlowModeSeconds: res.seconds } } });
      setSlow(null);
    }, seconds > 0 ? t('host.slowModeOn', { seconds }) : t('host.slowModeOff'));
  };
  const unblock = (userId: string) =>
    control.run(async () => {
      await api().call('unblockUser', { params: { id, userId } });
      services.store.getState().removeBlockedUser(userId);
    }, t('host.unblocked'));

  return (
    <aside className="host-panel card" aria-labelledby="host-title" data-testid="host-panel">
      <h2 id="host-title">{t('host.title', { role: t(`role.${role}`) })}</h2>
      <div className="button-row">
        <HostStartButton />
        {running && (
          <button type="button" className="button button--ghost" disabled={control.busy} onClick={() => void stop()}>
            {t('host.stop')}
          </button>
        )}
        <button type="button" className="button button--danger" disabled={control.busy} onClick={() => void end()}>
          {t('host.end')}
        </button>
      </div>
      {control.feedback}

      <Section title={t('host.popupTitle')}>
        <form className="form" onSubmit={(e) => void sendPopup(e)}>
          <div className="field">
            <label htmlFor={ids.popup}>{t('host.popupMessage')}</label>
            <textarea id={ids.popup} required value={popup.message} onChange={(e) => setPopup({ ...popup, message: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor={ids.service}>{t('host.popupService')}</label>
            <select id={ids.service} value={popup.service} onChange={(e) => setPopup({ ...popup, service: e.target.value })}>
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
          <button className="button" type="submit" disabled={popupAction.busy}>
            {t('host.send')}
          </button>
          {popupAction.feedback}
        </form>
      </Section>

      <Section title={t('host.pollTitle')}>
        <form className="form" onSubmit={(e) => void sendPoll(e)}>
          <div className="field">
            <label htmlFor={ids.question}>{t('host.question')}</label>
            <input id={ids.question} required value={poll.question} onChange={(e) => setPoll({ ...poll, question: e.target.value })} />
          </div>
          <OptionsEditor name="poll" options={poll.options} onChange={(options) => setPoll({ ...poll, options })} />
          <div className="field">
            <label htmlFor={ids.duration}>{t('host.duration')}</label>
            <input id={ids.duration} type="number" min={5} max={3600} value={poll.duration} onChange={(e) => setPoll({ ...poll, duration: Number(e.target.value) })} />
          </div>
          <button className="button" type="submit" disabled={pollAction.busy}>
            {t('host.send')}
          </button>
          {pollAction.feedback}
        </form>
      </Section>

      <Section title={t('host.quizTitle')}>
        <form className="form" onSubmit={(e) => void sendQuiz(e)}>
          <div className="field">
            <label htmlFor={ids.qquestion}>{t('host.question')}</label>
            <input id={ids.qquestion} required value={quiz.question} onChange={(e) => setQuiz({ ...quiz, question: e.target.value })} />
          </div>
          <OptionsEditor
            name="quiz-correct"
            options={quiz.options}
            onChange={(options) => setQuiz({ ...quiz, options, correct: Math.min(quiz.correct, options.length - 1) })}
            correct={quiz.correct}
            onCorrect={(correct) => setQuiz({ ...quiz, correct })}
          />
          <div className="field">
            <label htmlFor={ids.qduration}>{t('host.duration')}</label>
            <input id={ids.qduration} type="number" min={5} max={3600} value={quiz.duration} onChange={(e) => setQuiz({ ...quiz, duration: Number(e.target.value) })} />
          </div>
          <button className="button" type="submit" disabled={quizAction.busy}>
            {t('host.send')}
          </button>
          {quizAction.feedback}
        </form>
      </Section>

      <Section title={t('host.scoreboardTitle')}>
        <form className="form" onSubmit={(e) => void sendBoard(e)}>
          <div className="field">
            <label htmlFor={ids.count}>{t('host.count')}</label>
            <input id={ids.count} type="number" min={1} max={100} value={board.count} onChange={(e) => setBoard({ ...board, count: Number(e.target.value) })} />
          </div>
          <div className="field">
            <label htmlFor={ids.sduration}>{t('host.duration')}</label>
            <input id={ids.sduration} type="number" min={5} max={3600} value={board.duration} onChange={(e) => setBoard({ ...board, duration: Number(e.target.value) })} />
          </div>
          <button className="button" type="submit" disabled={scoreAction.busy}>
            {t('host.send')}
          </button>
          {scoreAction.feedback}
        </form>
      </Section>

      <Section title={t('host.slowModeTitle')}>
        <form className="form" onSubmit={(e) => void sendSlowMode(e)}>
          <div className="field">
            <label htmlFor={ids.slow}>{t('host.slowModeSeconds')}</label>
            <input
              id={ids.slow}
              type="number"
              min={0}
              max={CHAT_SLOW_MODE_MAX_SECONDS}
              value={slow ?? slowSeconds}
              onChange={(e) => setSlow(Math.max(0, Math.min(CHAT_SLOW_MODE_MAX_SECONDS, Math.round(Number(e.target.value) || 0))))}
            />
          </div>
          <button className="button" type="submit" disabled={slowAction.busy}>
            {t('host.slowModeApply')}
          </button>
          {slowAction.feedback}
        </form>
      </Section>

      <Section title={t('host.blockedTitle', { count: blocked.length })}>
        {blocked.length === 0 ? (
          <p className="hint">{t('host.noneBlocked')}</p>
        ) : (
          <ul className="plain-list" data-testid="blocked-list">
            {blocked.map((u) => (
              <li key={u.id} className="blocked-row">
                <span>{u.display_name}</span>
                <button type="button" className="button button--small button--ghost" onClick={() => void unblock(u.id)}>
                  {t('host.unblock')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </aside>
  );
}
