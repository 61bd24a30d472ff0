import { useTranslation } from 'react-i18next';
import { Button } from '@fanfare/ui';
import { useParty, useServices } from '../../app/context.tsx';
import { canStart } from '../../rules/roles.ts';
import { isAlbumFinished } from '../../rules/sync.ts';
import { roleOf } from '../../state/store.ts';
import { usePartyFont } from '../../ui/usePartyFont.ts';
import { useHostAction } from './useHostAction.tsx';

/**
 * Start button for the roles startAllowed names (spec 4 and 6), shown while the party is not
 * running. `big` where it is the screen's main action (the waiting room).
 */
export function HostStartButton(props: { big?: boolean }) {
  const { t } = useTranslation();
  const services = useServices();
  const font = usePartyFont();
  const allowed = useParty((s) => canStart(roleOf(s), s.party?.frontend.partyStartAllowed));
  const running = useParty((s) => !!s.status && !s.status.is_paused);
  const isFinished = useParty((s) => isAlbumFinished(s.status, s.tracks));
  const { run, busy, feedback } = useHostAction(running ? 'running' : 'stopped');
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
      <Button big={props.big ?? false} font={font} disabled={busy} onClick={() => void start()}>
        {t('host.start')}
      </Button>
      {feedback}
    </div>
  );
}
