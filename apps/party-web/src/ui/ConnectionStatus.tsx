import { useTranslation } from 'react-i18next';
import { useParty } from '../app/context.tsx';

/** The socket's state, visible to the fan (spec 4), read from the connection state machine. */
export function ConnectionStatus() {
  const { t } = useTranslation();
  const connection = useParty((s) => s.connection);
  if (connection.kind === 'idle' || connection.kind === 'ended' || connection.kind === 'error') return null;
  const label =
    connection.kind === 'live'
      ? t('connection.live')
      : connection.kind === 'connecting'
        ? t('connection.connecting')
        : t('connection.reconnecting', { seconds: Math.ceil(connection.delayMs / 1000) });
  return (
    <p className={`connection connection--${connection.kind}`} role="status" aria-live="polite" data-testid="connection-status">
      <span className="connection__dot" aria-hidden="true" />
      {label}
    </p>
  );
}

/** The global error state (spec 5 and 8): the socket gave up (retry cap, 1008) or the party did not load. */
export function GlobalError() {
  const { t } = useTranslation();
  const connection = useParty((s) => s.connection);
  const loadError = useParty((s) => s.loadError);
  if (connection.kind !== 'error' && !loadError) return null;
  const message = loadError
    ? loadError === '404'
      ? t('error.partyNotFound')
      : t('error.partyLoad')
    : connection.kind === 'error' && connection.reason === 'policy_violation'
      ? t('error.socketPolicy')
      : t('error.socketRetry');
  return (
    <div className="global-error" role="alert">
      <h1>{t('error.title')}</h1>
      <p>{message}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t('error.reload')}
      </button>
    </div>
  );
}
