import type { Font } from '@fanfare/protocol';
import { useParty } from '../app/context.tsx';

/** The party's font choice, which sizes `@fanfare/ui` buttons (wide fonts take the smaller size). */
export function usePartyFont(): Font | null {
  return useParty((s) => s.party?.frontend.visual?.font ?? null);
}
