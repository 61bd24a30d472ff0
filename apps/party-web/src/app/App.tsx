import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { HashRouter, Navigate, Route, Routes, useLocation } from './router.tsx';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import type { WebSocketCtor } from '@fanfare/client';
import { LiveSession } from '../live/liveSession.ts';
import { refreshServiceTokenIfDue } from '../session/loginFlow.ts';
import { loadWithTimeout } from '../rules/loadTimeout.ts';
import { LoadErrorBoundary } from '../ui/LoadErrorBoundary.tsx';
import { LoadFailed } from '../ui/LoadFailed.tsx';
import { Loading } from '../ui/Loading.tsx';
import { Shell } from '../ui/Shell.tsx';
import { End } from '../screens/End.tsx';
import { GrantLogin } from '../screens/GrantLogin.tsx';
import { Home } from '../screens/Home.tsx';
import { Pre } from '../screens/Pre.tsx';
import { Register } from '../screens/Register.tsx';
import { Service } from '../screens/Service.tsx';
import { Waiting } from '../screens/Waiting.tsx';
import { isPartyPreview } from '../preview/previewMode.ts';
import { ServicesProvider, useParty, useServices } from './context.tsx';
import { RedirectGuard } from './RedirectGuard.tsx';
import type { AppServices } from './services.ts';

// The Player (playback, host tools, players) is its own chunk: the waiting room loads only the chat it shares with it, after its first paint.
const Player = lazy(() => loadWithTimeout(() => import('../screens/Player.tsx')));
// Party Replay (issue 47): its own chunk, with its strings and players' code.
const Replay = lazy(() => loadWithTimeout(() => import('../replay/Replay.tsx')));

/** A lazily loaded screen (the Player): the loading animation meanwhile, the load-failed state if its chunk fails (spec 8). */
function LazyScreen(props: { children: ReactNode }) {
  return (
    <LoadErrorBoundary fallback={<LoadFailed />}>
      <Suspense fallback={<Loading />}>{props.children}</Suspense>
    </LoadErrorBoundary>
  );
}

/** How often the service token's expiry is checked (the window itself is 9 minutes). */
const SERVICE_TOKEN_CHECK_MS = 60_000;

/** Page names: the FAQ filter and the shell rules use them. */
function pageOf(pathname: string): string {
  if (pathname === '/') return 'home';
  return pathname.split('/')[1] || 'home';
}

/** Keeps the live connection while a signed-up fan is in the waiting room or the player. */
function LiveConnection(props: { WebSocket: WebSocketCtor }) {
  const services = useServices();
  const location = useLocation();
  const page = pageOf(location.pathname);
  const signedUp = useParty((s) => !!s.user && !!s.token);
  // The editor's preview shows a sample fan: it never opens the socket (issue 14).
  const wantsLive = signedUp && (page === 'waiting' || page === 'player') && !isPartyPreview(window.location.search);
  useEffect(() => {
    if (wantsLive && !services.live) {
      const live = new LiveSession(services, props.WebSocket);
      services.attachLive(live);
      void live.start();
    }
    if (!signedUp && services.live) {
      services.live.stop();
      services.attachLive(null);
    }
  }, [wantsLive, signedUp, services, props.WebSocket]);
  useEffect(() => {
    if (page === 'end' && services.live) {
      services.live.stop();
      services.attachLive(null);
    }
  }, [page, services]);
  useEffect(
    () => () => {
      services.live?.stop();
      services.attachLive(null);
    },
    [services],
  );
  return null;
}

/** Reloads a Spotify service token before it expires (spec 4). */
function ServiceTokenRefresher() {
  const services = useServices();
  useEffect(() => {
    void refreshServiceTokenIfDue(services.session);
    const timer = setInterval(() => void refreshServiceTokenIfDue(services.session), SERVICE_TOKEN_CHECK_MS);
    return () => clearInterval(timer);
  }, [services]);
  return null;
}

function Page(props: { children: ReactNode }) {
  const location = useLocation();
  return <Shell page={pageOf(location.pathname)}>{props.children}</Shell>;
}

/** The routes of spec 2 (hash router); any other path leads to `/`. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/pre" element={<Page><Pre /></Page>} />
      <Route path="/" element={<Page><Home /></Page>} />
      <Route path="/service" element={<Page><Service /></Page>} />
      <Route path="/register" element={<Page><Register /></Page>} />
      <Route path="/waiting" element={<Page><Waiting /></Page>} />
      <Route
        path="/player"
        element={
          <Page>
            <LazyScreen>
              <Player />
            </LazyScreen>
          </Page>
        }
      />
      <Route path="/end" element={<Page><End /></Page>} />
      <Route path="/replay" element={<Page><LazyScreen><Replay /></LazyScreen></Page>} />
      <Route path="/grant/:grantToken" element={<GrantLogin />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

/** The whole app for one party. */
export function App(props: { services: AppServices; i18n: I18n; WebSocket: WebSocketCtor }) {
  return (
    <I18nextProvider i18n={props.i18n}>
      <ServicesProvider value={props.services}>
        <HashRouter>
          <RedirectGuard />
          <LiveConnection WebSocket={props.WebSocket} />
          <ServiceTokenRefresher />
          <AppRoutes />
        </HashRouter>
      </ServicesProvider>
    </I18nextProvider>
  );
}
