import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@fanfare/client';

/** The words for a failed host action: not allowed, the server's reason for a conflict, or a failure. */
export function failureText(err: unknown, t: (key: string, o?: Record<string, unknown>) => string): string {
  if (!(err instanceof ApiError)) return t('host.failed');
  if (err.status === 401 || err.status === 403) return t('host.notAllowed');
  const detail = typeof err.body === 'object' && err.body && typeof err.body.detail === 'string' ? err.body.detail : null;
  if (err.status === 409 && detail) return t('host.conflict', { detail });
  return t('host.failed');
}

/**
 * Runs a host action and reports its outcome in words. `context` names the state the outcome
 * belongs to (e.g. running or stopped): once the state moved on, the old message is not shown, so
 * "The party is stopped." never sits next to a Stop button after a later start.
 */
export function useHostAction(context = '') {
  const { t } = useTranslation();
  const [message, setMessage] = useState<{ ok: boolean; text: string; context: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>, done: string, doneContext = context) => {
    setBusy(true);
    setMessage(null);
    try {
      await action();
      setMessage({ ok: true, text: done, context: doneContext });
      return true;
    } catch (err) {
      setMessage({ ok: false, text: failureText(err, t), context });
      return false;
    } finally {
      setBusy(false);
    }
  };
  const feedback = message && message.context === context && (
    <p className={message.ok ? 'form-ok' : 'form-error'} role={message.ok ? 'status' : 'alert'}>
      {message.text}
    </p>
  );
  return { run, busy, feedback };
}
