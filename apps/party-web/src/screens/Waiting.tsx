import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from '../app/router.tsx';
import { useParty } from '../app/context.tsx';
import { canStart } from '../rules/roles.ts';
import { loadWithTimeout } from '../rules/loadTimeout.ts';
import { roleOf } from '../state/store.ts';
import { LoadErrorBoundary } from '../ui/LoadErrorBoundary.tsx';
import { LoadFailed } from '../ui/LoadFailed.tsx';
import { ListenerCount } from '../party/SyncIndicator.tsx';
import { NewsletterForm } from '../party/NewsletterForm.tsx';
import { TrackList } from '../party/TrackList.tsx';
import { Countdown } from '../ui/Countdown.tsx';
import { useUi } from '../ui/uiContext.tsx';
import { PartyHero } from './parts.tsx';

// Host controls load only for those who may start the party: fans' first paint does not carry them (issue 16).
const HostPrepare = lazy(() => loadWithTimeout(() => import('../party/host/HostPrepare.tsx')).then((m) => ({ default: m.HostPrepare })));
const HostStartButton = lazy(() => loadWithTimeout(() => import('../party/host/HostStartButton.tsx')).then((m) => ({ default: m.HostStartButton })));
// The chat (shared with the Player) comes after the first paint: the countdown does not wait for it.
const WaitingChat = lazy(() => loadWithTimeout(() => import('../party/WaitingChat.tsx')));

/**
 * Waiting room (spec 2): a live countdown to the start, and already the party's chat with its
 * reactions and polls; enters the player when the party starts. The countdown leads (above the
 * fold on a phone), the chat follows it (beside it on a wide screen), then the other modules.
 */
export function Waiting() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ui = useUi();
  const party = useParty((s) => s.party);
  const status = useParty((s) => s.status);
  const token = useParty((s) => s.token);
  const user = useParty((s) => s.user);
  const mayStart = useParty((s) => canStart(roleOf(s), s.party?.frontend.partyStartAllowed));
  const role = useParty((s) => roleOf(s));
  const modules = party?.frontend.pageModulesWaiting ?? ['countdown', 'tracks', 'faq'];
  // The render's clock: read once, and again when the countdown reaches zero.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (status) void navigate('/player', { replace: true });
  }, [status, navigate]);
  if (!party) return null;
  if (!token || !user) return <Navigate to="/" replace />;
  const startsAt = Date.parse(party.starts_at);
  const countdown = modules.includes('countdown') ? (
    now < startsAt ? (
      <Countdown targetMs={startsAt} label={t('waiting.countdownLabel')} onDone={() => setNow(Date.now())} />
    ) : (
      <p className="lead" role="status">
        {t('waiting.startingSoon')}
      </p>
    )
  ) : null;
  return (
    <div className="screen screen--waiting waiting-layout">
      <div className="waiting-layout__intro">
        <PartyHero />
        <h1>{t('waiting.title', { name: user.display_name })}</h1>
        {/* The count comes with the socket's first presence: its line is kept free so nothing below moves. */}
        <div className="listener-slot">
          <ListenerCount />
        </div>
        {(role === 'host' || role === 'admin') && (
          <p className="lead" role="status" data-testid="role-confirmed">
            {t(role === 'host' ? 'waiting.hostRole' : 'waiting.adminRole')}
          </p>
        )}
        {mayStart && (
          <LoadErrorBoundary fallback={<LoadFailed />}>
            <Suspense fallback={null}>
              <HostStartButton big />
            </Suspense>
          </LoadErrorBoundary>
        )}
        {(role === 'host' || role === 'admin') && (
          <LoadErrorBoundary fallback={<LoadFailed />}>
            <Suspense fallback={null}>
              <HostPrepare />
            </Suspense>
          </LoadErrorBoundary>
        )}
        {countdown}
      </div>
      <div className="waiting-layout__chat">
        <LoadErrorBoundary fallback={<LoadFailed />}>
          <Suspense
            fallback={
              <p className="hint chat chat--loading" role="status">
                {t('waiting.loadingChat')}
              </p>
            }
          >
            <WaitingChat />
          </Suspense>
        </LoadErrorBoundary>
      </div>
      <div className="waiting-layout__modules">
        {modules.map((m) => {
          if (m === 'tracks') return <TrackList key={m} />;
          if (m === 'newsletter') return <NewsletterForm key={m} />;
          if (m === 'faq')
            return (
              <button key={m} type="button" className="button button--ghost" onClick={ui.openFaq}>
                {t('waiting.faq')}
              </button>
            );
          return null;
        })}
      </div>
    </div>
  );
}
