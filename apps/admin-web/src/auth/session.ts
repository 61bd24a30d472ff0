import type { CmsLoginResponse, CmsUser } from '@fanfare/protocol';

const KEY = 'fanfare.admin.session';

export interface StoredSession {
  token: string;
  expiresAt: string;
  user: CmsUser;
}

/**
 * The signed-in user's token, kept in sessionStorage (gone when the tab closes) and announced to
 * subscribers when it changes, so the whole app reacts to sign-in, sign-out and expiry at once.
 */
export function createSessionStore(storage: Storage) {
  let current: StoredSession | null = read();
  let expiredNotice = false;
  const listeners = new Set<() => void>();

  function read(): StoredSession | null {
    try {
      const v = storage.getItem(KEY);
      if (!v) return null;
      const s = JSON.parse(v) as StoredSession;
      return Date.parse(s.expiresAt) > Date.now() ? s : null;
    } catch {
      return null;
    }
  }
  const emit = () => listeners.forEach((l) => l());

  return {
    get: () => current,
    token: () => (current && Date.parse(current.expiresAt) > Date.now() ? current.token : null),
    /** True once after the server ended the session (the sign-in screen says so). */
    wasExpired: () => expiredNotice,
    signIn(login: CmsLoginResponse) {
      current = { token: login.access_token, expiresAt: login.expires_at, user: login.user };
      expiredNotice = false;
      storage.setItem(KEY, JSON.stringify(current));
      emit();
    },
    setUser(user: CmsUser) {
      if (!current) return;
      current = { ...current, user };
      storage.setItem(KEY, JSON.stringify(current));
      emit();
    },
    signOut(expired = false) {
      if (!current) return;
      current = null;
      expiredNotice = expired;
      storage.removeItem(KEY);
      emit();
    },
    subscribe(l: () => void) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
