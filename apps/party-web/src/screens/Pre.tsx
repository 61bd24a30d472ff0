import { useTranslation } from 'react-i18next';
import { useNavigate } from '../app/router.tsx';
import { useParty } from '../app/context.tsx';
import { waitingRoomOpensAtMs } from '../rules/redirect.ts';
import { Countdown } from '../ui/Countdown.tsx';
import { PartyHero } from './parts.tsx';

/** Pre (spec 2): shown before the party opens, with a countdown to the waiting room. */
export function Pre() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const party = useParty((s) => s.party);
  if (!party) return null;
  return (
    <div className="screen screen--pre">
      <PartyHero />
      <h1>{t('pre.title')}</h1>
      <p className="lead">{t('pre.text')}</p>
      <Countdown targetMs={waitingRoomOpensAtMs(party)} label={t('pre.countdownLabel')} onDone={() => void navigate('/', { replace: true })} />
    </div>
  );
}
