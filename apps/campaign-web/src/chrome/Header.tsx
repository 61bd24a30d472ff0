import { ProviderBadge } from '@fanfare/ui';
import { LANGUAGE_NAMES } from '../messages.ts';
import { usePage, useRuntime } from '../runtime/context.tsx';

/** The top bar: the campaign's artist, the logged-in provider and the language switch. */
export function Header() {
  const view = usePage();
  const rt = useRuntime();
  const artist = view.campaign.tag_manager.artist;
  return (
    <header className="header">
      <span className="header__brand">{artist ?? view.campaign.name}</span>
      <div className="header__end">
        {view.account && <ProviderBadge service={view.account.service} />}
        {view.locales.length > 1 && (
          <div className="lang-switch" role="group" aria-label={rt.t('page.language')}>
            {view.locales.map((code) => (
              <button
                key={code}
                type="button"
                lang={code}
                className="lang-switch__option"
                aria-pressed={code === view.locale}
                onClick={() => rt.setLocale(code)}
              >
                {/* Shown as DE/EN, read as the language's own name. */}
                <span aria-hidden="true">{code.toUpperCase()}</span>
                <span className="ffui-visually-hidden">{LANGUAGE_NAMES[code] ?? code}</span>
              </button>
            ))}
          </div>
        )}
      </div>
    </header>
  );
}
