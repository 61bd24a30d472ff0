import { useTranslation } from 'react-i18next';
import { Link, Navigate } from '../app/router.tsx';
import { useParty, useServices } from '../app/context.tsx';
import { PartyHero } from './parts.tsx';

/**
 * Home (spec 2): the entry page. A fan who has signed up goes on to the waiting room or, once the
 * party runs, the player; everyone else is invited to log in or sign up.
 */
export function Home() {
  const { t } = useTranslation();
  const party = useParty((s) => s.party);
  const token = useParty((s) => s.token);
  const user = useParty((s) => s.user);
  const hasGrantLink = useServices().storage.grant !== null;
  if (!party) return null;
  if (token && user) return <Navigate to={party.status ? '/player' : '/waiting'} replace />;
  const next = token || !party.login_required ? '/register' : '/service';
  return (
    <div className="screen screen--home">
      <PartyHero isStartPage />
      <h1>{t('home.title')}</h1>
      <p className="lead">{t('home.text')}</p>
      {hasGrantLink && (
        <p className="lead" role="status" data-testid="grant-invite">
          {t('home.grantInvite')}
        </p>
      )}
      <Link className="button button--large" to={next}>
        {t('home.join')}
      </Link>
    </div>
  );
}
