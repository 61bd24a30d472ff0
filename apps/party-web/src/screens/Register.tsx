import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from '../app/router.tsx';
import { DISPLAY_NAME_MAX_LENGTH, REAL_NAME_MAX_LENGTH } from '@fanfare/protocol';
import { useParty, useServices } from '../app/context.tsx';
import type { SignupFailure } from '../rules/signup.ts';
import { allowedStickers } from '../rules/theme.ts';
import { signUp } from '../session/loginFlow.ts';
import { stickerGlyph } from '../ui/stickers.ts';
import { CountrySelect } from '../ui/CountrySelect.tsx';

/** Register (spec 2): the party signup, also where a provider login returns. */
export function Register() {
  const { t } = useTranslation();
  const services = useServices();
  const navigate = useNavigate();
  const party = useParty((s) => s.party);
  const token = useParty((s) => s.token);
  const user = useParty((s) => s.user);
  const systemUser = useParty((s) => s.systemUser);
  const ids = { real: useId(), display: useId(), email: useId(), country: useId(), emailErr: useId(), nameErr: useId(), competition: useId() };
  const [form, setForm] = useState(() => ({
    realName: systemUser?.display_name ?? '',
    // Issue 15: the chat name starts as the provider's display name, a sticker is chosen already.
    displayName: (systemUser?.display_name ?? '').slice(0, DISPLAY_NAME_MAX_LENGTH),
    email: systemUser?.email ?? '',
    country: systemUser?.country ?? '',
    profileSticker: (party ? (allowedStickers(party.frontend.visual)[0] ?? null) : null) as string | null,
    competitionAccepted: false,
  }));
  const [failures, setFailures] = useState<SignupFailure[]>([]);
  const [busy, setBusy] = useState(false);
  if (!party) return null;
  if (!token && party.login_required) return <Navigate to="/service" replace />;
  if (token && user) return <Navigate to={party.status ? '/player' : '/waiting'} replace />;

  const competition = party.frontend.competitionIsEnabled ?? false;
  const stickers = allowedStickers(party.frontend.visual).slice(0, 12);
  const update = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const result = await signUp(services.session, form);
    setBusy(false);
    setFailures(result ?? []);
    if (!result) void navigate(services.store.getState().party?.status ? '/player' : '/waiting', { replace: true });
  };
  const emailTaken = failures.includes('errorDuplicateEmail');
  const nameTaken = failures.includes('errorDuplicateUserName');

  return (
    <div className="screen screen--register">
      <h1>{t('register.title')}</h1>
      <p className="lead">{t('register.text')}</p>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate={false}>
        <div className="field">
          <label htmlFor={ids.real}>{t('register.realName')}</label>
          <input id={ids.real} name="real_name" autoComplete="name" required maxLength={REAL_NAME_MAX_LENGTH} value={form.realName} onChange={(e) => update({ realName: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={ids.display}>{t('register.displayName')}</label>
          <input
            id={ids.display}
            name="display_name"
            autoComplete="nickname"
            required
            maxLength={DISPLAY_NAME_MAX_LENGTH}
            value={form.displayName}
            aria-invalid={nameTaken}
            aria-describedby={nameTaken ? ids.nameErr : undefined}
            onChange={(e) => update({ displayName: e.target.value })}
          />
          {nameTaken && (
            <p id={ids.nameErr} className="field-error" role="alert">
              {t('register.errorDuplicateUserName')}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor={ids.email}>{t('register.email')}</label>
          <input
            id={ids.email}
            name="email"
            type="email"
            autoComplete="email"
            value={form.email}
            aria-invalid={emailTaken}
            aria-describedby={emailTaken ? ids.emailErr : undefined}
            onChange={(e) => update({ email: e.target.value })}
          />
          {emailTaken && (
            <p id={ids.emailErr} className="field-error" role="alert">
              {t('register.errorDuplicateEmail')}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor={ids.country}>{t('register.country')}</label>
          <CountrySelect id={ids.country} name="country" value={form.country} onChange={(country) => update({ country })} />
        </div>
        {stickers.length > 0 && (
          <fieldset className="field sticker-picker">
            <legend>{t('register.sticker')}</legend>
            <div className="sticker-grid">
              {stickers.map((s) => (
                <label key={s} className={`sticker-tile${form.profileSticker === s ? ' is-selected' : ''}`}>
                  <input type="radio" name="profile_sticker" value={s} checked={form.profileSticker === s} onChange={() => update({ profileSticker: s })} className="sr-only" />
                  <span aria-hidden="true">{stickerGlyph(s)}</span>
                  <span className="sr-only">{t(`sticker.${s}`, { defaultValue: s })}</span>
                </label>
              ))}
            </div>
          </fieldset>
        )}
        {competition && (
          <div className="field field--check">
            <input id={ids.competition} type="checkbox" checked={form.competitionAccepted} onChange={(e) => update({ competitionAccepted: e.target.checked })} />
            <label htmlFor={ids.competition}>{t('register.competition')}</label>
          </div>
        )}
        {failures.includes('failure') && (
          <p className="form-error" role="alert">
            {t('register.failure')}
          </p>
        )}
        <button type="submit" className="button button--large" disabled={busy}>
          {busy ? t('common.pleaseWait') : t('register.submit')}
        </button>
      </form>
    </div>
  );
}
