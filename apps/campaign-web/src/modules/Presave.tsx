import { useId, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import type { PresaveModule } from '@fanfare/protocol';
import { Button, Headline, Icon, Paragraph, SERVICE_NAMES } from '@fanfare/ui';
import { localized } from '../rules/localized.ts';
import { usePage, useRuntime } from '../runtime/context.tsx';

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'error'; message: string };

/**
 * Pre-save: log in with a service that carries the release in the visitor's territory, choose
 * album or tracks (and following the artist), agree to the wording, and the server saves at the
 * release there. Shows the fan's pre-save and its result once made.
 */
export function Presave({ module }: { module: z.infer<typeof PresaveModule> }) {
  const view = usePage();
  const rt = useRuntime();
  const ids = useId();
  const release = view.campaign.data.release;
  const [save, setSave] = useState<'album' | 'tracks'>('album');
  const [follow, setFollow] = useState(true);
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  if (!release) return null;
  const title = localized(module.title, view.locale, view.defaultLocale) || rt.t('presave.title');
  const text = localized(module.text, view.locale, view.defaultLocale);
  const consent = localized(release.consent_text, view.locale, view.defaultLocale);
  const when = view.release ? new Date(view.release.release_at).toLocaleString(view.locale, { dateStyle: 'medium', timeStyle: 'short' }) : null;
  const service = view.account?.service ?? null;
  const named = service === 'spotify' ? release.spotify : service === 'apple' ? { album_id: release.apple?.album_id ?? null, track_ids: release.apple?.song_ids ?? [] } : null;
  const canAlbum = Boolean(named?.album_id);
  const canTracks = Boolean(named && named.track_ids.length > 0);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setStatus({ kind: 'sending' });
    try {
      await rt.presave({ save: canAlbum ? save : 'tracks', follow_artist: service === 'spotify' && follow, ...(email ? { email } : {}) });
      setStatus({ kind: 'idle' });
    } catch (err) {
      setStatus({ kind: 'error', message: err instanceof Error ? err.message : rt.t('presave.failed') });
    }
  };

  let body;
  if (view.presave && view.presave.state !== 'cancelled') {
    const p = view.presave;
    body = (
      <p className="notice notice--success" role="status" data-testid="presave-state" data-state={p.state}>
        {p.state === 'done' ? rt.t('presave.done') : p.state === 'failed' ? rt.t('presave.failedAtRelease') : rt.t('presave.pending', { date: when ?? '' })}
      </p>
    );
  } else if (view.phase !== 'upcoming') {
    body = <Paragraph>{rt.t('presave.outNow')}</Paragraph>;
  } else if (!service) {
    body = (
      <div className="player__login-buttons">
        {view.campaign.enabled_services.map((s) => (
          <Button key={s} variant="secondary" font={view.page.look.font} className={`presave-login presave-login--${s}`} onClick={() => void rt.login(s)}>
            <Icon name={s} />
            {rt.t('presave.loginWith', { service: SERVICE_NAMES[s] ?? s })}
          </Button>
        ))}
      </div>
    );
  } else {
    body = (
      <form className="form" onSubmit={(e) => void submit(e)} data-testid="presave-form">
        {canAlbum && canTracks && (
          <fieldset className="field">
            <legend className="field__label">{rt.t('presave.what')}</legend>
            {(['album', 'tracks'] as const).map((v) => (
              <label key={v} className="consent" htmlFor={`${ids}-${v}`}>
                <input id={`${ids}-${v}`} type="radio" name="presave-what" value={v} checked={save === v} onChange={() => setSave(v)} />
                <span>{rt.t(`presave.${v}`)}</span>
              </label>
            ))}
          </fieldset>
        )}
        {service === 'spotify' && (release.spotify?.artist_ids.length ?? 0) > 0 && (
          <label className="consent" htmlFor={`${ids}-follow`}>
            <input id={`${ids}-follow`} type="checkbox" name="follow" checked={follow} onChange={(e) => setFollow(e.target.checked)} />
            <span>{rt.t('presave.follow')}</span>
          </label>
        )}
        {service === 'apple' && (
          <label className="field" htmlFor={`${ids}-email`}>
            <span className="field__label">{rt.t('presave.email')}</span>
            <input id={`${ids}-email`} className="field__input" type="email" autoComplete="email" maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
        )}
        {consent && <p className="consent consent--implicit">{consent}</p>}
        {status.kind === 'error' && (
          <p className="notice notice--error" role="alert">
            {status.message}
          </p>
        )}
        <Button type="submit" big font={view.page.look.font} disabled={status.kind === 'sending' || (!canAlbum && !canTracks)}>
          {rt.t('presave.submit')}
        </Button>
      </form>
    );
  }
  return (
    <section className="module presave" aria-labelledby={`${module.id}-title`} data-testid="presave" data-territory={view.release?.country} data-release-state={view.release?.state}>
      <Headline level={2} id={`${module.id}-title`}>
        {title}
      </Headline>
      {text && <Paragraph>{text}</Paragraph>}
      {view.release?.state === 'unavailable' && (
        <p className="notice" role="status" data-testid="release-unavailable">
          {rt.t('presave.unavailable')}
        </p>
      )}
      {view.release && view.release.state === 'pending' && when && <Paragraph muted>{rt.t('presave.releaseAt', { date: when })}</Paragraph>}
      {body}
    </section>
  );
}
