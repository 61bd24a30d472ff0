import type { ReactNode } from 'react';
import type { CampaignInstance } from '../campaign.ts';
import { CampaignContext } from './context.ts';

/**
 * Makes a campaign instance available to the hooks. The page owns the instance: it calls
 * `createCampaign()` and `start()` once, and `destroy()` when the campaign leaves the page.
 */
export function CampaignProvider({ campaign, children }: { campaign: CampaignInstance; children?: ReactNode }) {
  return <CampaignContext.Provider value={campaign}>{children}</CampaignContext.Provider>;
}
