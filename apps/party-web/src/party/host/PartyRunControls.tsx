import { useTranslation } from 'react-i18next';
import { Button } from '@fanfare/ui';
import { useParty, useServices } from '../../app/context.tsx';
import { usePartyFont } from '../../ui/usePartyFont.ts';
import { EndPartyButton } from './EndPartyButton.tsx';
import { HostStartButton } from './HostStartButton.tsx';
import { useHostAction } from './useHostAction.tsx';

/** Start, stop and end (spec 4: server actions), side by side at the top of the host panel. */
export function PartyRunControls() {
  const { t } = useTranslation();
  const services = useServices();
  const font = usePartyFont();
  const running = useParty((s) => !!s.status && !s.status.is_paused);
  const { run, busy, feedback } = useHostAction(running ? 'running' : 'stopped');
  const stop = () =>
    run(
      async () => {
        const res = await services.api().call('stopParty', { params: { id: services.partyId } });
        services.store.getState().applyRunState(res);
      },
      t('host.stopped'),
      'stopped',
    );
  return (
    <>
      <div className="button-row host-run">
        <HostStartButton />
        {running && (
          <Button variant="secondary" font={font} disabled={busy} onClick={() => void stop()}>
            {t('host.stop')}
          </Button>
        )}
        <EndPartyButton />
      </div>
      {feedback}
    </>
  );
}
