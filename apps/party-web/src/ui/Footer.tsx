import { useTranslation } from 'react-i18next';
import { useParty, useServices } from '../app/context.tsx';
import { footerLinks } from '../env/environment.ts';
import { LOCALES, ensureLocale, type Locale } from '../i18n/setup.ts';
import { showsLanguageSwitch } from '../rules/layout.ts';
import { useState } from 'react';
import { deleteAccount, downloadMyData, logout } from '../session/loginFlow.ts';
import { Avatar } from './Avatar.tsx';
import { useUi } from './uiContext.tsx';

/**
 * Footer on every page but Player (spec 2): the user with logout, the language switch (only with
 * more than one locale), FAQ, imprint, privacy, terms (only with the competition), copyright.
 */
export function Footer() {
  return (
    <footer className="footer">
      <FooterContent />
    </footer>
  );
}

/** The page's `lang` follows the chosen locale (screen readers, hyphenation). */
function setDocumentLanguage(lng: Locale): void {
  document.documentElement.setAttribute('lang', lng);
}

/**
 * A footer link to the party's own legal page: the app at `/p/{partyId}/` has its pages under
 * that prefix, the default party's at `/legal/...` (issue 15).
 */
export function partyLegalHref(href: string, pathname: string): string {
  const prefix = /^\/p\/[A-Za-z0-9_-]{1,64}\//.exec(pathname)?.[0];
  return prefix && href.startsWith('/legal/') ? `${prefix}${href.slice(1)}` : href;
}

/**
 * What the footer holds; the Player has no footer (spec 2), so its menu shows the same (issue 15:
 * logout, FAQ, legal, language reachable from the player).
 */
export function FooterContent() {
  const { t, i18n } = useTranslation();
  const services = useServices();
  const ui = useUi();
  const user = useParty((s) => s.user);
  const systemUser = useParty((s) => s.systemUser);
  const token = useParty((s) => s.token);
  const competition = useParty((s) => s.party?.frontend.competitionIsEnabled ?? false);
  const raw = footerLinks(document);
  const links = {
    imprint: partyLegalHref(raw.imprint, window.location.pathname),
    privacy: partyLegalHref(raw.privacy, window.location.pathname),
    terms: partyLegalHref(raw.terms, window.location.pathname),
  };
  const name = user?.display_name ?? systemUser?.display_name ?? null;
  const picture = user?.profile_picture ?? systemUser?.profile_picture ?? null;
  const switchLocale = (lng: Locale) => {
    void ensureLocale(i18n, lng).then(() => i18n.changeLanguage(lng));
    try {
      localStorage.setItem('fanfare.locale', lng);
    } catch {
      // Not stored: the choice lasts for this page.
    }
    setDocumentLanguage(lng);
  };
  return (
    <>
      {token && name && (
        <div className="footer__user">
          <Avatar name={name} picture={picture} sticker={user?.profile_sticker} size={32} />
          <span className="footer__name">{name}</span>
          <button type="button" className="button button--ghost button--small" onClick={() => void logout(services.session)}>
            {t('footer.logout')}
          </button>
          <DataRights />
        </div>
      )}
      <nav className="footer__links" aria-label={t('footer.navLabel')}>
        <button type="button" className="link-button" onClick={ui.openFaq}>
          {t('footer.faq')}
        </button>
        <a href={links.imprint}>{t('footer.imprint')}</a>
        <a href={links.privacy}>{t('footer.privacy')}</a>
        {competition && <a href={links.terms}>{t('footer.terms')}</a>}
      </nav>
      {showsLanguageSwitch(LOCALES) && (
        <div className="footer__locales" role="group" aria-label={t('footer.language')}>
          {LOCALES.map((lng) => (
            <button
              key={lng}
              type="button"
              className="link-button"
              aria-pressed={i18n.language === lng}
              lang={lng}
              onClick={() => switchLocale(lng)}
            >
              {t(`footer.locale.${lng}`)}
            </button>
          ))}
        </div>
      )}
      <p className="footer__copyright">{t('footer.copyright', { year: new Date().getFullYear() })}</p>
    </>
  );
}

/** "My data" (a JSON download) and "Delete my account" behind a confirmation (GDPR art. 15, 17, 20). */
function DataRights() {
  const { t } = useTranslation();
  const services = useServices();
  const [isConfirming, setConfirming] = useState(false);
  const [hasFailed, setFailed] = useState(false);
  const download = async () => {
    const blob = await downloadMyData(services.session);
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = 'my-fanfare-data.json';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  const erase = async () => {
    try {
      await deleteAccount(services.session);
    } catch {
      setFailed(true);
    }
  };
  return (
    <>
      <button type="button" className="button button--ghost button--small" onClick={() => void download()}>
        {t('footer.myData')}
      </button>
      {!isConfirming && (
        <button type="button" className="button button--ghost button--small" onClick={() => setConfirming(true)}>
          {t('footer.deleteAccount')}
        </button>
      )}
      {isConfirming && (
        <div role="alertdialog" aria-labelledby="delete-account-text" className="footer__confirm">
          <p id="delete-account-text">{t('footer.deleteAccountConfirm')}</p>
          <button type="button" className="button button--small" onClick={() => void erase()}>
            {t('footer.deleteAccountYes')}
          </button>
          <button type="button" className="button button--ghost button--small" onClick={() => setConfirming(false)}>
            {t('footer.deleteAccountNo')}
          </button>
          {hasFailed && <p role="alert">{t('footer.deleteAccountFailed')}</p>}
        </div>
      )}
    </>
  );
}
