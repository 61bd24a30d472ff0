import { createContext, useContext } from 'react';
import type { CampaignInstance } from '../campaign.ts';

/** The campaign instance of the subtree (one per campaign; nested providers may hold others). */
export const CampaignContext = createContext<CampaignInstance | null>(null);

/** The instance of the nearest `CampaignProvider`; throws outside one. */
export function useCampaignInstance(): CampaignInstance {
  const instance = useContext(CampaignContext);
  if (!instance) throw new Error('useCampaign hooks need a <CampaignProvider campaign={...}> above them');
  return instance;
}
