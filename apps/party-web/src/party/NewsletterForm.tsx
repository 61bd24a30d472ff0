import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParty } from '../app/context.tsx';
import { newsletterEndpoint, newsletterIds } from '../env/environment.ts';
import { CountrySelect } from '../ui/CountrySelect.tsx';
import { newsletterPayload } from './newsletterPayload.ts';

/**
 * Newsletter signup (spec 1: email, name, country), posted to the campaign system's newsletter
 * call. Hidden until the page names that call (`<meta name="fanfare-newsletter-url">`).
 */
export function NewsletterForm() {
  const { t, i18n } = useTranslation();
  const endpoint = newsletterEndpoint(document);
  const offered = newsletterIds(document);
  const ids = { email: useId(), name: useId(), country: useId(), consent: useId() };
  const user = useParty((s) => s.user);
  // Issue 15: the fan's e-mail, name and country from the signup are reused.
  const [form, setForm] = useState(() => ({ email: user?.email ?? '', name: user?.real_name ?? user?.display_name ?? '', country: user?.country ?? '', consent: false }));
  const [state, setState] = useState<'idle' | 'busy' | 'done' | 'error'>('idle');
  if (!endpoint || offered.length === 0) return null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setState('busy');
    try {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(
          newsletterPayload({ ...form, locale: i18n.language, newsletterIds: offered, pageUrl: window.location.href }),
        ),
      });
      setState(res.ok ? 'done' : 'error');
    } catch {
      setState('error');
    }
  };
  if (state === 'done')
    return (
      <p className="card" role="status">
        {t('newsletter.done')}
      </p>
    );
  return (
    <form className="card form" onSubmit={(e) => void submit(e)} aria-labelledby="newsletter-title">
      <h2 id="newsletter-title">{t('newsletter.title')}</h2>
      <div className="field">
        <label htmlFor={ids.email}>{t('newsletter.email')}</label>
        <input id={ids.email} type="email" required autoComplete="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={ids.name}>{t('newsletter.name')}</label>
        <input id={ids.name} autoComplete="name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={ids.country}>{t('newsletter.country')}</label>
        <CountrySelect id={ids.country} value={form.country} onChange={(country) => setForm({ ...form, country })} />
      </div>
      <div className="field field--check">
        <input id={ids.consent} type="checkbox" required checked={form.consent} onChange={(e) => setForm({ ...form, consent: e.target.checked })} />
        <label htmlFor={ids.consent}>{t('newsletter.consent')}</label>
      </div>
      {state === 'error' && (
        <p className="form-error" role="alert">
          {t('newsletter.error')}
        </p>
      )}
      <button className="button" type="submit" disabled={state === 'busy'}>
        {t('newsletter.submit')}
      </button>
    </form>
  );
}

/** What the newsletter confirmation link says when it brings the fan back (`?newsletter_state=`). */
export function newsletterState(search: string): 'success' | 'error' | null {
  const value = new URLSearchParams(search).get('newsletter_state');
  return value === 'success' || value === 'error' ? value : null;
}

/**
 * After confirming the newsletter the fan lands back on the party page: a success (or error)
 * message instead of a blank form (issue 15). Dismissible; the address keeps no trace of it.
 */
export function NewsletterBanner() {
  const { t } = useTranslation();
  const [state, setState] = useState(() => newsletterState(window.location.search));
  if (!state) return null;
  const dismiss = () => {
    const url = new URL(window.location.href);
    for (const key of [...url.searchParams.keys()]) if (key === 'newsletter_state' || key.startsWith('newsletter_') || key === 'address_book_id' || key === 'form_id') url.searchParams.delete(key);
    window.history.replaceState(window.history.state, '', url.toString());
    setState(null);
  };
  return (
    <div className={`card newsletter-banner newsletter-banner--${state}`} role={state === 'success' ? 'status' : 'alert'} data-testid="newsletter-banner">
      <p>{state === 'success' ? t('newsletter.confirmed') : t('newsletter.confirmFailed')}</p>
      <button type="button" className="button button--ghost button--small" onClick={dismiss}>
        {t('common.close')}
      </button>
    </div>
  );
}
