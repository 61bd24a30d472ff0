import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from '../app/router.tsx';
import { useParty, useServices } from '../app/context.tsx';
import { musicKitSettings } from '../env/environment.ts';
import { appleLogin, OFFERED_LOGIN_SERVICES, spotifyLoginUrl } from '../session/loginFlow.ts';

/** The app's name as MusicKit shows it to the fan. */
const MUSICKIT_APP_NAME = 'Fanfare Listening Party';

const NONE: never[] = [];

/** Service (spec 2): the choice of streaming service for login; never `umg_hls` (spec 6). */
export function Service() {
  const { t } = useTranslation();
  const services = useServices();
  const token = useParty((s) => s.token);
  const follow = useParty((s) => s.party?.follow) ?? NONE;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Apple's button shows only when MusicKit can load here (the official script or the emulator's
  // stand-in, as the server names it); otherwise, and after a failed load, the page says why.
  const [musicKit] = useState(() => musicKitSettings(document));
  const [appleFailed, setAppleFailed] = useState(false);
  const appleUnavailable = !musicKit ? t('service.appleNotConfigured') : appleFailed ? t('service.appleLoadFailed') : null;
  if (token) return <Navigate to="/register" replace />;

  const loginWith = async (service: string) => {
    setError(null);
    if (service === 'spotify') {
      // The provider sends the fan back to Register with the login result in the query (spec 2).
      const back = `${window.location.origin}${window.location.pathname}#/register`;
      const artistIds = follow.filter((f) => f.service === 'spotify' && f.type === 'artist').map((f) => f.id);
      window.location.assign(spotifyLoginUrl(services.baseUrl, { redirectUri: back, partyId: services.partyId, grant: services.storage.grant, artistIds }));
      return;
    }
    if (!musicKit) return;
    setBusy(true);
    try {
      // Loaded on first use (120 s at most): MusicKit is not part of the page's first load.
      const { loadMusicKit, ProviderSdkLoadError } = await import('@fanfare/client/provider-sdks');
      const instance = await loadMusicKit<{ authorize(): Promise<string> }>(musicKit, { doc: document, win: window }, MUSICKIT_APP_NAME).catch((err: unknown) => {
        if (err instanceof ProviderSdkLoadError) setAppleFailed(true);
        throw err;
      });
      // The emulator's stand-in leaves for its consent page and comes back with the token in the
      // address (the login flow takes it from there); MusicKit answers with the token here.
      const userToken = await instance.authorize();
      const ok = await appleLogin(services.session, userToken);
      if (!ok) setError(t('service.loginFailed'));
    } catch {
      setError(t('service.loginFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="screen screen--service">
      <h1>{t('service.title')}</h1>
      <p className="lead">{t('service.text')}</p>
      <div className="service-list">
        {OFFERED_LOGIN_SERVICES.filter((service) => service !== 'apple' || !appleUnavailable).map((service) => (
          <button key={service} type="button" className={`button button--large button--${service}`} disabled={busy} onClick={() => void loginWith(service)}>
            {t(`service.loginWith.${service}`)}
          </button>
        ))}
      </div>
      {appleUnavailable && (
        <p className="hint service-unavailable" data-testid="apple-unavailable">
          {appleUnavailable}
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <p className="hint">{t('service.privacyHint')}</p>
    </div>
  );
}
