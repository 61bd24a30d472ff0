import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { PartyActions, PartyState } from '../state/store.ts';
import type { AppServices } from './services.ts';

const ServicesContext = createContext<AppServices | null>(null);

export const ServicesProvider = ServicesContext.Provider;

/** The services of the app this component belongs to. */
export function useServices(): AppServices {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('useServices outside ServicesProvider');
  return s;
}

/** Reads a slice of the party state and re-renders when it changes. */
export function useParty<T>(selector: (s: PartyState & PartyActions) => T): T {
  return useStore(useServices().store, selector);
}
