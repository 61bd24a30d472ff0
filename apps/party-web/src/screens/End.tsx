import { useTranslation } from 'react-i18next';
import { useParty } from '../app/context.tsx';
import { Link } from '../app/router.tsx';
import { NewsletterForm } from '../party/NewsletterForm.tsx';
import { PartyHero } from './parts.tsx';

const NONE: never[] = [];
/** Modules of the End screen when the party lists none. */
const DEFAULT_END_MODULES = ['thanks', 'follow', 'newsletter'];

/** End (spec 2): shown after the party has ended, with the modules the party lists. */
export function End() {
  const { t } = useTranslation();
  const modules = useParty((s) => s.party?.frontend.pageModulesEnd) ?? DEFAULT_END_MODULES;
  const follow = useParty((s) => s.party?.follow) ?? NONE;
  return (
    <div className="screen screen--end">
      <PartyHero compact />
      <h1>{t('end.title')}</h1>
      {/* Party Replay (issue 47): the party again, on the album's timeline. */}
      <p>
        <Link to="/replay" className="button button--large" data-testid="end-replay">
          {t('end.replay')}
        </Link>
      </p>
      {modules.map((m) => {
        if (m === 'thanks') return <p key={m} className="lead">{t('end.text')}</p>;
        if (m === 'follow' && follow.length > 0)
          return (
            <section key={m} className="card">
              <h2>{t('end.followTitle')}</h2>
              <ul className="plain-list">
                {follow.map((f) => (
                  <li key={`${f.service}-${f.type}-${f.id}`}>{t(`end.follow.${f.type}`, { service: t(`service.name.${f.service}`) })}</li>
                ))}
              </ul>
            </section>
          );
        if (m === 'newsletter') return <NewsletterForm key={m} />;
        return null;
      })}
    </div>
  );
}
