import type { LoginService } from '@fanfare/protocol';

/** The one small tracking interface of the app (spec 4: login success and failure are tracked). */
export interface Analytics {
  loginSuccess(service: LoginService | null): void;
  loginFailure(service: LoginService, error: string): void;
}

/**
 * Default analytics: a DOM event (`fanfare:analytics`) that a tag manager on the page may listen
 * to, and the `dataLayer` array when one exists. Sends nothing anywhere by itself.
 */
export function domAnalytics(target: Window): Analytics {
  const emit = (event: string, data: Record<string, unknown>) => {
    target.dispatchEvent(new CustomEvent('fanfare:analytics', { detail: { event, ...data } }));
    const layer = (target as unknown as { dataLayer?: unknown[] }).dataLayer;
    if (Array.isArray(layer)) layer.push({ event, ...data });
  };
  return {
    loginSuccess: (service) => emit('login_success', { service }),
    loginFailure: (service, error) => emit('login_failure', { service, error }),
  };
}
