import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParty } from '../app/context.tsx';
import { headerMode } from '../rules/layout.ts';
import { FooterContent } from './Footer.tsx';
import { LazyModal } from './LazyModal.tsx';

/** Elements of the header in order when the party lists none. */
const DEFAULT_HEADER_ELEMENTS = ['logo', 'title', 'image'];

/** Header with logo, title and header image by the rules of spec 2. */
export function Header(props: { page: string; isMobile: boolean }) {
  const { t } = useTranslation();
  const party = useParty((s) => s.party);
  const visual = party?.frontend.visual;
  const hasLogo = !!visual?.logoImage;
  const mode = headerMode(props.page, props.isMobile, hasLogo);
  if (mode === 'hidden') return null;
  const logo = hasLogo ? <img className="header__logo" src={visual!.logoImage} alt={t('header.logoAlt')} /> : <span className="header__wordmark">Fanfare</span>;
  if (mode === 'logo') {
    // The Player has no footer (spec 2): its header keeps the party's name and a menu (issue 15).
    return (
      <header className="header header--compact">
        {logo}
        <p className="header__title header__title--compact">{party?.name ?? t('app.name')}</p>
        <PlayerMenu />
      </header>
    );
  }
  const elements = visual?.headerElements?.length ? visual.headerElements : DEFAULT_HEADER_ELEMENTS;
  return (
    <header className="header">
      {elements.map((el) => {
        if (el === 'logo') return <div key="logo">{logo}</div>;
        if (el === 'title') return <p key="title" className="header__title">{party?.name ?? t('app.name')}</p>;
        if (el === 'image' && visual?.headerImage) return <img key="image" className="header__image" src={visual.headerImage} alt="" />;
        return null;
      })}
    </header>
  );
}

/** The logo beside the content on desktop screens whose header is hidden (spec 2). */
export function SideLogo(props: { page: string; isMobile: boolean }) {
  const { t } = useTranslation();
  const logo = useParty((s) => s.party?.frontend.visual?.logoImage);
  if (!logo || headerMode(props.page, props.isMobile, true) !== 'hidden') return null;
  return <img className="side-logo" src={logo} alt={t('header.logoAlt')} />;
}

/** The Player's menu: logout, FAQ, legal pages and language, which the footer holds elsewhere. */
function PlayerMenu() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button--ghost button--small header__menu" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <span aria-hidden="true">☰ </span>
        {t('header.menu')}
      </button>
      {open && (
        <LazyModal title={t('header.menu')} onClose={() => setOpen(false)}>
          <div className="footer footer--menu">
            <FooterContent />
          </div>
        </LazyModal>
      )}
    </>
  );
}
