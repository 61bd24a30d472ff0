/**
 * @fanfare/campaign-sdk/react: the React binding. Wrap the page in
 * `<CampaignProvider campaign={createCampaign()}>` and use the hooks:
 * `useCampaign`, `useNewsletter`, `useLogin`, `useTokenGate`, `useTiming`, `useTranslation`, `usePlayback`.
 */
export { CampaignProvider } from './CampaignProvider.tsx';
export { useCampaignInstance } from './context.ts';
export { useCampaign, useLogin, useNewsletter, usePlayback, useTiming, useTokenGate, useTranslation, type NewsletterStatus } from './hooks.ts';
