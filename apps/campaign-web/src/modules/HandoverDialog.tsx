import { useEffect, useId, useRef, useState } from 'react';
import type { CampaignService } from '@fanfare/protocol';
import { Button, FullScreenModal, Paragraph, SERVICE_NAMES } from '@fanfare/ui';
import { androidIntentUrl, IN_APP_NAMES, type InAppVisit } from '../rules/inAppBrowser.ts';
import { useRuntime } from '../runtime/context.tsx';

type Link = { attempt: number; kind: 'ready'; url: string; minutes: number } | { attempt: number; kind: 'failed' };

/**
 * Inside an in-app browser a provider login fails silently, so the login buttons open this
 * instead: the page handed over to the system browser. Android opens it through an intent; iOS
 * has no such door, so the visitor gets the steps to "Open in Safari" and a link to copy.
 */
export default function HandoverDialog({ service, visit, onClose }: { service: CampaignService; visit: InAppVisit; onClose: () => void }) {
  const rt = useRuntime();
  const ids = useId();
  const input = useRef<HTMLInputElement>(null);
  const [attempt, setAttempt] = useState(0);
  const [link, setLink] = useState<Link | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    let live = true;
    rt.handover(service, visit.app).then(
      (l) => live && setLink({ attempt, kind: 'ready', url: l.url, minutes: Math.max(1, Math.round((Date.parse(l.expires_at) - Date.now()) / 60_000)) }),
      () => live && setLink({ attempt, kind: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [rt, service, visit.app, attempt]);

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      // No clipboard in this browser: select the link for the system's own copy menu.
      input.current?.focus();
      input.current?.select();
    }
  };

  const current = link && link.attempt === attempt ? link : null;
  return (
    // Nearly opaque: the page behind must not show through the steps (no background image here).
    <FullScreenModal title={rt.t('handover.title')} onClose={onClose} closeLabel={rt.t('handover.close')} overlayOpacity={0.95}>
      <div className="handover" data-testid="handover" data-os={visit.os}>
        <Paragraph>{rt.t('handover.why', { service: SERVICE_NAMES[service] ?? service, app: IN_APP_NAMES[visit.app] })}</Paragraph>
        {!current ? (
          <p role="status">{rt.t('handover.preparing')}</p>
        ) : current.kind === 'failed' ? (
          <p className="notice notice--error" role="alert">
            {rt.t('handover.failed')}{' '}
            <button type="button" className="link-button" onClick={() => setAttempt((a) => a + 1)}>
              {rt.t('page.retry')}
            </button>
          </p>
        ) : (
          <>
            {visit.os === 'android' ? (
              <a className="ffui-button ffui-button--primary handover__open" href={androidIntentUrl(current.url)} data-testid="handover-intent">
                {rt.t('handover.open')}
              </a>
            ) : (
              <div aria-labelledby={`${ids}-steps`} role="group">
                <p id={`${ids}-steps`} className="handover__steps-title">
                  {rt.t('handover.stepsTitle')}
                </p>
                <ol className="handover__steps">
                  <li>{rt.t('handover.step1')}</li>
                  <li>{rt.t('handover.step2')}</li>
                  <li>{rt.t('handover.step3')}</li>
                </ol>
              </div>
            )}
            <label className="field" htmlFor={`${ids}-link`}>
              <span className="field__label">{rt.t('handover.link')}</span>
              <input id={`${ids}-link`} ref={input} className="field__input" readOnly value={current.url} onFocus={(e) => e.target.select()} data-testid="handover-link" />
            </label>
            <Button variant={visit.os === 'android' ? 'secondary' : 'primary'} onClick={() => void copy(current.url)}>
              {rt.t('handover.copy')}
            </Button>
            <p role="status" className="handover__copied">
              {copied ? rt.t('handover.copied') : ''}
            </p>
            <Paragraph muted>{rt.t('handover.expires', { count: current.minutes })}</Paragraph>
          </>
        )}
      </div>
    </FullScreenModal>
  );
}
