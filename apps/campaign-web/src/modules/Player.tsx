import { lazy, Suspense, useState } from 'react';
import type { z } from 'zod';
import type { CampaignService, PlayerModule } from '@fanfare/protocol';
import { Button, Headline, Icon, Paragraph, ProviderBadge, SERVICE_NAMES } from '@fanfare/ui';
import { detectInAppBrowser } from '../rules/inAppBrowser.ts';
import { localized } from '../rules/localized.ts';
import { usePage, useRuntime } from '../runtime/context.tsx';

// The track list, the controls and the players (hls.js among them) load in their own chunk: the
// page's first paint does not wait for them.
const PlayerPanel = lazy(() => import('./PlayerPanel.tsx'));
// Only in-app browsers need it: loaded when a login button is pressed there.
const HandoverDialog = lazy(() => import('./HandoverDialog.tsx'));

/** Music: provider login (Spotify, Apple), then playback through it; previews for visitors not logged in. */
export function Player({ module }: { module: z.infer<typeof PlayerModule> }) {
  const view = usePage();
  const rt = useRuntime();
  const title = localized(module.title, view.locale, view.defaultLocale) || rt.t('player.title');
  // Inside Instagram, TikTok & co. a provider login fails silently: offer the system browser instead.
  const [inApp] = useState(() => (view.isEditor ? null : detectInAppBrowser(navigator.userAgent)));
  const [handoverFor, setHandoverFor] = useState<CampaignService | null>(null);
  return (
    <section className="module player" aria-labelledby={`${module.id}-title`}>
      <Headline level={2} id={`${module.id}-title`}>
        {title}
      </Headline>
      {!view.isReady ? null : view.account ? (
        <div className="player__account">
          <span>{rt.t('player.loggedInWith')}</span>
          <ProviderBadge service={view.account.service} />
          <button type="button" className="link-button" onClick={() => void rt.logout()}>
            {rt.t('player.logout')}
          </button>
        </div>
      ) : (
        view.campaign.enabled_services.length > 0 && (
          <div className="player__login">
            <Paragraph muted>{rt.t('player.previewHint')}</Paragraph>
            <div className="player__login-buttons">
              {view.campaign.enabled_services
                .filter((service) => !view.unavailable[service])
                .map((service) => {
                  // Its SDK is still loading (up to 120 s on a hanging CDN): the button says so and waits.
                  const loading = view.sdkLoading[service] === true;
                  const name = SERVICE_NAMES[service] ?? service;
                  return (
                    <Button
                      key={service}
                      variant="secondary"
                      font={view.page.look.font}
                      className={`login login--${service}${loading ? ' login--loading' : ''}`}
                      aria-busy={loading || undefined}
                      disabled={loading}
                      onClick={() => (inApp ? setHandoverFor(service) : void rt.login(service))}
                    >
                      <Icon name={service} />
                      {rt.t(loading ? 'player.sdkLoading' : 'player.loginWith', { service: name })}
                    </Button>
                  );
                })}
            </div>
            {/* A provider whose SDK cannot load here gets no button: the page says why instead. */}
            {view.campaign.enabled_services.map((service) => {
              const reason = view.unavailable[service];
              if (!reason) return null;
              const key = reason === 'timed-out' ? 'player.unavailableTimedOut' : reason === 'load-failed' ? 'player.unavailableLoadFailed' : 'player.unavailableNotConfigured';
              return (
                <Paragraph key={service} muted role="status" className={`player__unavailable player__unavailable--${service}`}>
                  {rt.t(key, { service: SERVICE_NAMES[service] ?? service })}
                </Paragraph>
              );
            })}
          </div>
        )
      )}
      {inApp && handoverFor && (
        <Suspense fallback={null}>
          <HandoverDialog service={handoverFor} visit={inApp} onClose={() => setHandoverFor(null)} />
        </Suspense>
      )}
      <Suspense fallback={<p className="player__loading">{rt.t('page.loading')}</p>}>
        <PlayerPanel trackIds={module.spotify_track_ids} />
      </Suspense>
    </section>
  );
}
