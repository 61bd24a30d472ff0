import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from '../app/router.tsx';
import { useParty, useServices } from '../app/context.tsx';
import { appleAuthorizeUrl } from '../env/environment.ts';
import { appleLogin, OFFERED_LOGIN_SERVICES, spotifyLoginUrl } from '../session/loginFlow.ts';

interface MusicKitGlobal {
  getInstance(): { authorize(): Promise<string> };
}

const NONE: never[] = [];

/** Service (spec 2): the choice of streaming service for login; never `umg_hls` (spec 6). */
export function Service() {
  const { t } = useTranslation();
  const services = useServices();
  const token = useParty((s) => s.token);
  const follow = useParty((s) => s.party?.follow) ?? NONE;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
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
    const musicKit = (window as unknown as { MusicKit?: MusicKitGlobal }).MusicKit;
    if (!musicKit) {
      // No MusicKit on the page: the server's authorize page (the Apple emulator) stands in and
      // sends the fan back to Register with a music user token in the query.
      const authorize = appleAuthorizeUrl(document);
      if (!authorize) {
        setError(t('service.appleUnavailable'));
        return;
      }
      const back = `${window.location.origin}${window.location.pathname}#/register`;
      window.location.assign(`${authorize}?redirect_uri=${encodeURIComponent(back)}`);
      return;
    }
    setBusy(true);
    try {
      const userToken = await musicKit.getInstance().authorize();
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
        {OFFERED_LOGIN_SERVICES.map((service) => (
          <button key={service} type="button" className={`button button--large button--${service}`} disabled={busy} onClick={() => void loginWith(service)}>
            {t(`service.loginWith.${service}`)}
          </button>
        ))}
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <p className="hint">{t('service.privacyHint')}</p>
    </div>
  );
}
