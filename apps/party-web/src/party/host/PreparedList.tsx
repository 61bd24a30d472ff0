import { useTranslation } from 'react-i18next';
import { Button } from '@fanfare/ui';
import { useServices } from '../../app/context.tsx';
import { usePartyFont } from '../../ui/usePartyFont.ts';
import type { PreparedQuestion } from '@fanfare/protocol';
import { usePrepared } from './prepared.tsx';
import { useHostAction } from './useHostAction.tsx';

/**
 * The polls and quizzes prepared for later (kept on the server for the party). With `launch` (the
 * waiting room and the host panel) each starts with one press and leaves the list; without it they
 * can only be removed.
 */
export function PreparedList({ launch = false }: { launch?: boolean }) {
  const { t } = useTranslation();
  const services = useServices();
  const font = usePartyFont();
  const { items, failed, remove } = usePrepared();
  const { run, busy, feedback } = useHostAction();
  // Started through the poll or quiz call, then taken off the list (on every device).
  const start = async (item: PreparedQuestion) => {
    const ok = await run(
      () =>
        item.kind === 'poll'
          ? services.api().call('postPoll', { params: { id: services.partyId }, body: item.body })
          : services.api().call('postQuizQuestion', { params: { id: services.partyId }, body: item.body }),
      t(item.kind === 'poll' ? 'host.pollSent' : 'host.quizSent'),
    );
    if (ok) await remove(item.id).catch(() => undefined);
  };
  return (
    <div data-testid="prepared-list">
      {failed ? (
        <p className="form-error" role="alert">
          {t('host.preparedFailed')}
        </p>
      ) : items.length === 0 ? (
        <p className="hint">{t('host.preparedEmpty')}</p>
      ) : (
        <ul className="prepared-list">
          {items.map((item) => (
            <li key={item.id}>
              <span>
                {t(item.kind === 'poll' ? 'host.preparedPoll' : 'host.preparedQuiz')}: {item.body.question}
              </span>
              {launch && (
                <Button type="button" font={font} disabled={busy} onClick={() => void start(item)} aria-label={t('host.launchNamed', { question: item.body.question })}>
                  {t('host.launch')}
                </Button>
              )}
              <button type="button" className="link-button" disabled={busy} onClick={() => void run(() => remove(item.id), t('host.removed'))} aria-label={t('host.removeNamed', { question: item.body.question })}>
                {t('host.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {feedback}
    </div>
  );
}
