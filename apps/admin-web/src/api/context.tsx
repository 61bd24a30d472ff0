import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { CmsPermission, WebConfig } from '@fanfare/protocol';
import { cmsRolesCan } from '@fanfare/protocol';
import type { SessionStore } from '../auth/session.ts';
import type { CmsApi } from './cms.ts';

interface Services {
  api: CmsApi;
  session: SessionStore;
  /** The deployment's public URLs, from the page the CMS served. */
  config: WebConfig;
}

const ServicesContext = createContext<Services | null>(null);

export function ServicesProvider({ services, children }: { services: Services; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

function useServices(): Services {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('ServicesProvider missing');
  return s;
}

/** The typed CMS client of this tab. */
export const useApi = (): CmsApi => useServices().api;
export const useSessionStore = (): SessionStore => useServices().session;
/** The party API's public base URL (the server's PUBLIC_URL). */
export const usePartyUrl = (): string => useServices().config.partyUrl;

/** The signed-in session (re-renders on sign-in, sign-out and expiry). */
export function useSession() {
  const store = useSessionStore();
  return useSyncExternalStore(store.subscribe, store.get);
}

/** True when the signed-in user's roles grant `permission` (the server's own table). */
export function useCan(permission: CmsPermission): boolean {
  const session = useSession();
  return session !== null && cmsRolesCan(session.user.roles, permission);
}
