import { ServiceIconRow } from '@fanfare/ui';
import { usePage, useRuntime } from '../runtime/context.tsx';

/** Imprint and privacy links, and the row of the campaign's enabled services. */
export function Footer() {
  const view = usePage();
  const rt = useRuntime();
  const { imprint_url: imprint, privacy_url: privacy } = view.page.legal;
  return (
    <footer className="footer">
      <ServiceIconRow services={view.campaign.enabled_services} label={rt.t('page.availableOn')} />
      {(imprint || privacy) && (
        <nav className="footer__legal" aria-label={`${rt.t('page.imprint')} / ${rt.t('page.privacy')}`}>
          {imprint && <a href={imprint}>{rt.t('page.imprint')}</a>}
          {privacy && <a href={privacy}>{rt.t('page.privacy')}</a>}
        </nav>
      )}
    </footer>
  );
}
