import { useTranslation } from 'react-i18next';
import { useParty } from '../app/context.tsx';
import { headerMode } from '../rules/layout.ts';

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
    return (
      <header className="header header--compact">
        {logo}
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
