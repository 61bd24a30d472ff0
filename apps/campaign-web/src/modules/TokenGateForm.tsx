import { useId, useState, type FormEvent } from 'react';
import { Button, Headline, Icon, Paragraph } from '@fanfare/ui';
import { usePage, useRuntime } from '../runtime/context.tsx';

type Status = 'idle' | 'checking' | 'denied' | 'granted' | 'failed';

/**
 * The token-gate page's form (spec 4 "Token gate"): the visitor enters a code; a valid one gives
 * an access key and the runtime redirects to the gated campaign.
 */
export function TokenGateForm() {
  const view = usePage();
  const rt = useRuntime();
  const ids = useId();
  const [code, setCode] = useState('');
  const [status, setStatus] = useState<Status>('idle');
  const [reason, setReason] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return;
    setStatus('checking');
    setReason(null);
    try {
      const result = await rt.checkCode(code.trim());
      setStatus(result.status);
      if (result.status === 'denied') setReason(result.reason);
    } catch {
      setStatus('failed');
    }
  };

  const message = status === 'denied' ? rt.t('gate.denied') : status === 'failed' ? rt.t('gate.failed') : null;
  return (
    <section className="module gate" aria-labelledby={`${ids}-title`}>
      <div className="gate__icon" aria-hidden="true">
        <Icon name="ticket" size={40} />
      </div>
      <Headline level={2} id={`${ids}-title`}>
        {rt.t('gate.title')}
      </Headline>
      <Paragraph>{rt.t('gate.text')}</Paragraph>
      {status === 'granted' ? (
        <p className="notice notice--success" role="status" data-testid="gate-granted">
          {rt.t('gate.granted')}
        </p>
      ) : (
        <form className="form gate__form" onSubmit={(e) => void submit(e)}>
          <label className="field" htmlFor={`${ids}-code`}>
            <span className="field__label">{rt.t('gate.code')}</span>
            <input
              id={`${ids}-code`}
              className="field__input field__input--code"
              name="code"
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              required
              maxLength={200}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              aria-invalid={status === 'denied' || undefined}
              aria-describedby={message ? `${ids}-message` : undefined}
            />
          </label>
          {message && (
            <p id={`${ids}-message`} className="notice notice--error" role="alert" data-testid="gate-message">
              {message}
            </p>
          )}
          {message && reason && (
            <p className="notice__reason" data-testid="gate-reason">
              {reason}
            </p>
          )}
          <Button type="submit" big font={view.page.look.font} disabled={status === 'checking'}>
            {status === 'checking' ? rt.t('gate.checking') : rt.t('gate.submit')}
          </Button>
        </form>
      )}
    </section>
  );
}
