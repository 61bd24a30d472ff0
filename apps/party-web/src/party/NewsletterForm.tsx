import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
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
  const [form, setForm] = useState({ email: '', name: '', country: '', consent: false });
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
