import { useTranslation } from 'react-i18next';
import { useParty, useServices } from '../../app/context.tsx';
import { useHostAction } from './useHostAction.tsx';

/** The fans blocked from the chat, each with an Unblock button (spec 6). */
export function BlockedFansList() {
  const { t } = useTranslation();
  const services = useServices();
  const blocked = useParty((s) => s.blockedUsers);
  const { run, feedback } = useHostAction();
  const unblock = (userId: string) =>
    run(async () => {
      await services.api().call('unblockUser', { params: { id: services.partyId, userId } });
      services.store.getState().removeBlockedUser(userId);
    }, t('host.unblocked'));
  return (
    <>
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
      {feedback}
    </>
  );
}
