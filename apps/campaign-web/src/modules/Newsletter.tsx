import { useId, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import type { NewsletterModule } from '@fanfare/protocol';
import { Button, Headline, Paragraph } from '@fanfare/ui';
import { consentFields, missingRequired } from '../rules/consents.ts';
import { localized } from '../rules/localized.ts';
import { usePage, useRuntime } from '../runtime/context.tsx';

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent' } | { kind: 'error'; message: string };

/** A plausible address; the server checks it for real. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The newsletter form (spec 3 and 5): e-mail, one consent checkbox per newsletter with its text in
 * the page's locale, required consents enforced before sending. Double opt-in: the visitor gets a
 * mail and comes back with the confirmation banner.
 */
export function Newsletter({ module }: { module: z.infer<typeof NewsletterModule> }) {
  const view = usePage();
  const rt = useRuntime();
  const ids = useId();
  const [email, setEmail] = useState('');
  const [ticked, setTicked] = useState<Set<string>>(() => new Set(view.restoredConsents));
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [problem, setProblem] = useState<string | null>(null);
  // Consents ticked in an in-app browser before the handover come back ticked (still unsent). Kept
  // in step during render, as React advises for state that follows a prop, not in an effect.
  const restored = view.restoredConsents.join(',');
  const [seenRestored, setSeenRestored] = useState(restored);
  if (restored !== seenRestored) {
    setSeenRestored(restored);
    if (restored) setTicked((prev) => new Set([...prev, ...restored.split(',')]));
  }
  const fields = consentFields(view.campaign, view.locale);
  if (fields.length === 0) return null;

  const toggle = (id: string, on: boolean) => {
    const next = new Set(ticked);
    if (on) next.add(id);
    else next.delete(id);
    setTicked(next);
    rt.noteConsents([...next]);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!EMAIL.test(email.trim())) return setProblem(rt.t('newsletter.invalidEmail'));
    if (missingRequired(fields, ticked).length > 0) return setProblem(rt.t('newsletter.requiredConsent'));
    if (!fields.some((f) => f.isImplicit || ticked.has(f.id))) return setProblem(rt.t('newsletter.noneChosen'));
    setProblem(null);
    setStatus({ kind: 'sending' });
    try {
      const consents = fields.filter((f) => !f.isImplicit).map((f) => ({ id: f.id, accepted: ticked.has(f.id) }));
      const result = await rt.signup(email.trim(), consents);
      setStatus(result === 'sent' ? { kind: 'sent' } : { kind: 'error', message: rt.t('newsletter.noneChosen') });
    } catch {
      setStatus({ kind: 'error', message: rt.t('newsletter.failed') });
    }
  };

  const title = localized(module.title, view.locale, view.defaultLocale) || rt.t('newsletter.title');
  const text = localized(module.text, view.locale, view.defaultLocale);
  return (
    <section className="module newsletter" aria-labelledby={`${ids}-title`}>
      <Headline level={2} id={`${ids}-title`}>
        {title}
      </Headline>
      {text && <Paragraph>{text}</Paragraph>}
      {status.kind === 'sent' ? (
        <p className="notice notice--success" role="status" data-testid="newsletter-sent">
          {rt.t('newsletter.sent')}
        </p>
      ) : (
        <form className="form" onSubmit={(e) => void submit(e)} noValidate aria-describedby={problem ? `${ids}-problem` : undefined}>
          <label className="field" htmlFor={`${ids}-email`}>
            <span className="field__label">{rt.t('newsletter.email')}</span>
            <input
              id={`${ids}-email`}
              className="field__input"
              type="email"
              name="email"
              autoComplete="email"
              inputMode="email"
              required
              maxLength={254}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={problem === rt.t('newsletter.invalidEmail') || undefined}
            />
          </label>
          {fields.map((f) =>
            f.isImplicit ? (
              <p key={f.id} className="consent consent--implicit">
                {f.text}
              </p>
            ) : (
              <label key={f.id} className="consent" htmlFor={`${ids}-${f.id}`}>
                <input
                  id={`${ids}-${f.id}`}
                  type="checkbox"
                  name={`consent-${f.id}`}
                  checked={ticked.has(f.id)}
                  onChange={(e) => toggle(f.id, e.target.checked)}
                  required={f.isRequired}
                  aria-required={f.isRequired || undefined}
                />
                <span>
                  {f.text}
                  {f.isRequired && <span className="consent__required"> ({rt.t('newsletter.required')})</span>}
                </span>
              </label>
            ),
          )}
          {problem && (
            <p id={`${ids}-problem`} className="notice notice--error" role="alert">
              {problem}
            </p>
          )}
          {status.kind === 'error' && (
            <p className="notice notice--error" role="alert">
              {status.message}
            </p>
          )}
          <Button type="submit" big font={view.page.look.font} disabled={status.kind === 'sending'}>
            {status.kind === 'sending' ? rt.t('newsletter.sending') : rt.t('newsletter.submit')}
          </Button>
        </form>
      )}
    </section>
  );
}
