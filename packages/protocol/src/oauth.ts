import { z } from 'zod';

/** Query of a provider's OAuth redirect back to us (Spotify login of fans and campaign accounts). */
export const OAuthCallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(4000).optional(),
  error: z.string().max(200).optional(),
});
export type OAuthCallbackQuery = z.infer<typeof OAuthCallbackQuery>;
