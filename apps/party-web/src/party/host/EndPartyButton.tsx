import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../app/context.tsx';
import { useHostAction } from './useHostAction.tsx';

/**
 * Ends the party for everyone (spec 4: end is a server action), after an inline "really?" like
 * every other host action asks. Cancel sends nothing and says nothing; only the server's answer
 * says the party has ended. Focus lands on Cancel, so two quick Enters cannot end a party.
 */
export function EndPartyButton() {
  const { t } = useTranslation();
  const services = useServices();
  const { run, busy, feedback } = useHostAction();
  const [isAsking, setAsking] = useState(false);
  const endButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (isAsking) cancelButton.current?.focus();
    else if (wasAsking.current) endButton.current?.focus();
    wasAsking.current = isAsking;
  }, [isAsking]);
  const end = async () => {
    await run(async () => {
      const res = await services.api().call('endParty', { params: { id: services.partyId } });
      services.store.getState().applyPartyEnded(res.ends_at);
    }, t('host.ended'));
    setAsking(false);
  };
  return (
    <div className="end-party">
      {isAsking ? (
        <div className="end-party__confirm" role="group" aria-labelledby="end-party-question" data-testid="end-confirm">
          <p id="end-party-question" className="end-party__question">
            {t('host.endConfirm')}
          </p>
          <div className="button-row">
            <button type="button" className="button button--danger" disabled={busy} onClick={() => void end()}>
              {t('host.endConfirmYes')}
            </button>
            <button type="button" className="button button--ghost" ref={cancelButton} disabled={busy} onClick={() => setAsking(false)}>
              {t('common.cancel')}
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="button button--danger" ref={endButton} onClick={() => setAsking(true)}>
          {t('host.end')}
        </button>
      )}
      {feedback}
    </div>
  );
}
