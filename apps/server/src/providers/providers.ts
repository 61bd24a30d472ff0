import type { Config } from '../platform/config.ts';
import { AppleAdapter } from './apple/adapter.ts';
import { SpotifyAdapter } from './spotify/adapter.ts';

/** Tokens from an OAuth exchange; `expiresAt` is ms since the epoch. */
export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number;
}

/** A streaming account's profile as the provider reports it. */
export interface ProviderProfile {
  id: string;
  displayName: string;
  email: string | null;
  country: string | null;
  premium: boolean;
  image: string | null;
}

export interface Providers {
  spotify: SpotifyAdapter;
  apple: AppleAdapter;
}

export function createProviders(config: Config): Providers {
  return { spotify: new SpotifyAdapter(config.spotify), apple: new AppleAdapter(config.apple) };
}
