import { lazy, Suspense, useEffect, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParty } from '../app/context.tsx';
import { isMobileWidth, showsFooter } from '../rules/layout.ts';
import { loadWithTimeout } from '../rules/loadTimeout.ts';
import { themeVariables } from '../rules/theme.ts';
import { LoadErrorBoundary } from './LoadErrorBoundary.tsx';
import { LoadFailed } from './LoadFailed.tsx';
import { NewsletterBanner } from '../party/NewsletterForm.tsx';
import { ConnectionStatus, GlobalError, PartyNotFound } from './ConnectionStatus.tsx';
import { Footer } from './Footer.tsx';
import { Header, SideLogo } from './Header.tsx';
import { Loading } from './Loading.tsx';
import { PopupLayer } from './PopupLayer.tsx';
import { UiContext, type UiActions } from './uiContext.tsx';
import { VideoModal } from './VideoModal.tsx';

const FaqModal = lazy(() => loadWithTimeout(() => import('./FaqModal.tsx')));

/** Tracks the mobile breakpoint (900 px, spec 2). */
export function useIsMobile(): boolean {
  const [mobile, setMobile] = useState(() => isMobileWidth(window.innerWidth));
  useEffect(() => {
    const onResize = () => setMobile(isMobileWidth(window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return mobile;
}

/** The app shell (spec 2): theme, header, footer, loading animation, FAQ and video modals, popups. */
export function Shell(props: { page: string; children: ReactNode }) {
  const { t } = useTranslation();
  const initialised = useParty((s) => s.initialised);
  const isUnknownParty = useParty((s) => s.loadError === '404');
  const visual = useParty((s) => s.party?.frontend.visual);
  const dark = visual?.dark ?? true;
  const isMobile = useIsMobile();
  const [faqOpen, setFaqOpen] = useState(false);
  const [video, setVideo] = useState<string | null>(null);
  const style = useMemo(() => themeVariables(visual) as CSSProperties, [visual]);
  const ui: UiActions = useMemo(
    () => ({ openFaq: () => setFaqOpen(true), openVideo: (url) => setVideo(url), page: props.page, isMobile }),
    [props.page, isMobile],
  );
  useEffect(() => {
    document.documentElement.style.setProperty('--ff-bg-root', style['--ff-bg' as keyof CSSProperties] as string);
  }, [style]);
  return (
    <UiContext.Provider value={ui}>
      <div className={`app app--${props.page} ${dark ? 'theme-dark' : 'theme-light'}${isMobile ? ' is-mobile' : ''}`} style={style}>
        <a className="skip-link" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>
          {t('common.skipToContent')}
        </a>
        {!initialised ? (
          <Loading />
        ) : (
          <>
            <GlobalError />
            <Header page={props.page} isMobile={isMobile} />
            <main id="main" tabIndex={-1} className="main">
              <SideLogo page={props.page} isMobile={isMobile} />
              <ConnectionStatus />
              <NewsletterBanner />
              {isUnknownParty ? <PartyNotFound /> : props.children}
            </main>
            {(showsFooter(props.page) || isUnknownParty) && <Footer />}
            <PopupLayer />
            {faqOpen && (
              <LoadErrorBoundary fallback={<LoadFailed />}>
                <Suspense fallback={null}>
                  <FaqModal page={props.page} onClose={() => setFaqOpen(false)} />
                </Suspense>
              </LoadErrorBoundary>
            )}
            {video && <VideoModal url={video} onClose={() => setVideo(null)} />}
          </>
        )}
      </div>
    </UiContext.Provider>
  );
}
