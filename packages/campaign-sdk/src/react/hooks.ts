/**
 * Thin hooks over one campaign instance: each subscribes to a part of the core with
 * `useSyncExternalStore` and returns its current value plus the part's actions.
 */
import { useCallback, useState, useSyncExternalStore } from 'react';
import type { AccountTokenInfo, Campaign, CampaignSimulation, CampaignTheme, PlaybackState, TokenGateResult } from '@fanfare/protocol';
import type { CampaignInstance } from '../campaign.ts';
import type { NewsletterBanner, SignupInput, SignupResult } from '../newsletter.ts';
import type { TimingPhase } from '../timing.ts';
import { useCampaignInstance } from './context.ts';

function useEventValue<T>(instance: CampaignInstance, subscribe: (cb: () => void) => () => void, read: () => T): T {
  void instance;
  return useSyncExternalStore(subscribe, read, read);
}

/** The campaign (the editor's unsaved version inside the editor), the editor's theme and simulation. */
export function useCampaign(): {
  instance: CampaignInstance;
  campaign: Campaign;
  isEmbedded: boolean;
  theme: CampaignTheme | null;
  simulation: CampaignSimulation | null;
} {
  const instance = useCampaignInstance();
  const campaign = useEventValue(instance, useCallback((cb) => instance.events.on('campaign', cb), [instance]), () => instance.campaign);
  const theme = useEventValue(instance, useCallback((cb) => instance.events.on('theme', cb), [instance]), () => instance.theme);
  const simulation = useEventValue(instance, useCallback((cb) => instance.events.on('simulation', cb), [instance]), () => instance.currentSimulation);
  return { instance, campaign, isEmbedded: instance.isEmbedded, theme, simulation };
}

export type NewsletterStatus = 'idle' | 'submitting' | 'sent' | 'skipped' | 'error';

/** Signup with its status, and the confirmation banner (once per session). */
export function useNewsletter(): {
  isEnabled: boolean;
  status: NewsletterStatus;
  error: Error | null;
  signup: (input: SignupInput) => Promise<SignupResult | null>;
  banner: NewsletterBanner | null;
  dismissBanner: () => void;
} {
  const instance = useCampaignInstance();
  const [status, setStatus] = useState<NewsletterStatus>('idle');
  const [error, setError] = useState<Error | null>(null);
  const banner = useEventValue(instance, useCallback((cb) => instance.events.on('newsletterBanner', cb), [instance]), () => instance.newsletterBanner);
  const signup = useCallback(
    async (input: SignupInput) => {
      setStatus('submitting');
      setError(null);
      try {
        const result = await instance.newsletter.signup(input);
        setStatus(result.status);
        return result;
      } catch (err) {
        setError(err instanceof Error ? err : new Error(String(err)));
        setStatus('error');
        return null;
      }
    },
    [instance],
  );
  return { isEnabled: instance.newsletter.isEnabled, status, error, signup, banner, dismissBanner: useCallback(() => instance.dismissNewsletterBanner(), [instance]) };
}

/** The account token and the login actions. */
export function useLogin(): {
  token: AccountTokenInfo | null;
  isLoggedIn: boolean;
  loginWithSpotify: () => Promise<void>;
  loginWithApple: () => Promise<AccountTokenInfo>;
  logout: () => Promise<void>;
} {
  const instance = useCampaignInstance();
  const token = useEventValue(instance, useCallback((cb) => instance.login.events.on('change', cb), [instance]), () => instance.login.token);
  return {
    token,
    isLoggedIn: token !== null,
    loginWithSpotify: useCallback(() => instance.login.loginWithSpotify(), [instance]),
    loginWithApple: useCallback(() => instance.login.loginWithApple(), [instance]),
    logout: useCallback(() => instance.login.logout(), [instance]),
  };
}

/** The token gate result (null until checked) and the access-code action. */
export function useTokenGate(): { result: TokenGateResult | null; hasAccess: boolean | null; submitCode: (code: string) => Promise<TokenGateResult> } {
  const instance = useCampaignInstance();
  const result = useEventValue(instance, useCallback((cb) => instance.tokenGate.events.on('change', cb), [instance]), () => instance.tokenGate.result);
  return { result, hasAccess: result?.has_access ?? null, submitCode: useCallback((code: string) => instance.tokenGate.submitCode(code), [instance]) };
}

/** The campaign's phase: upcoming, running or ended. */
export function useTiming(): { phase: TimingPhase; hasStarted: boolean; hasEnded: boolean } {
  const instance = useCampaignInstance();
  const phase = useEventValue(
    instance,
    useCallback((cb) => {
      const a = instance.timing.events.on('started', cb);
      const b = instance.timing.events.on('ended', cb);
      return () => (a(), b());
    }, [instance]),
    () => instance.timing.phase,
  );
  return { phase, hasStarted: phase !== 'upcoming', hasEnded: phase === 'ended' };
}

/** `t(key, vars)` in the current locale, and the locale switch. */
export function useTranslation(): { t: (key: string, vars?: Record<string, string | number>) => string; locale: string; setLocale: (code: string) => void; availableLocales: string[] } {
  const instance = useCampaignInstance();
  const locale = useEventValue(instance, useCallback((cb) => instance.i18n.events.on('change', cb), [instance]), () => instance.i18n.locale);
  // A new `t` per locale, so memoised children re-render when the language changes.
  const t = useCallback((key: string, vars?: Record<string, string | number>) => instance.i18n.t(key, vars, locale), [instance, locale]);
  return { t, locale, setLocale: useCallback((code: string) => instance.i18n.setLocale(code), [instance]), availableLocales: instance.i18n.availableLocales };
}

/** The playback state, the player of a provider and the HLS preview. */
export function usePlayback(): { state: PlaybackState; isMock: boolean; loadPlayer: CampaignInstance['playback']['loadPlayer']; preview: CampaignInstance['playback']['preview'] } {
  const instance = useCampaignInstance();
  const state = useEventValue(instance, useCallback((cb) => instance.playback.store.subscribe(cb), [instance]), () => instance.playback.store.state);
  return {
    state,
    isMock: instance.playback.isMock,
    loadPlayer: useCallback((service: string) => instance.playback.loadPlayer(service), [instance]),
    preview: useCallback(() => instance.playback.preview(), [instance]),
  };
}
