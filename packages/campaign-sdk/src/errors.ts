/** Every error message the SDK throws or logs (spec §5 and §8); the README lists them. */
export const SDK_ERRORS = {
  campaignIdMissing: 'CMS Campaign ID is not loaded, check meta tags',
  invalidEnvironment: 'Invalid environment',
  requiredConsent: (id: string) => `Required consent for the newsletter with id ${id} not provided`,
  loginRequiresCampaign: 'Login requires a campaign id',
  playerRequiresLogin: 'User account must be logged in to load player',
  playerNotImplemented: (service: string) => `Player not implemented for ${service}`,
  translationsNeedId: 'App or Campaign ID must be set to load translations',
  invalidPluralForm: (form: string) => `Invalid plural form: ${form}`,
  appleRepeat: 'Repeat for Apple Music not implemented',
  playbackUnsupported: 'Playback unsupported',
  notSupported: 'Not supported',
} as const;
