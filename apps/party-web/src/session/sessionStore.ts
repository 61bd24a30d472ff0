import type { LoginService } from '@fanfare/protocol';
import { LoginService as LoginServiceSchema } from '@fanfare/protocol';
import { storageKeys, type LoginParams } from '../rules/session.ts';

/** The stored login of one party (spec 4: token and service under a per-party local key). */
export interface StoredSession {
  token: string | null;
  service: LoginService | null;
  serviceToken: string | null;
  serviceExpiresAt: number | null;
}

/** Reads and writes the per-party login in a Storage (localStorage in the browser). */
export class SessionStorage {
  private readonly keys;
  constructor(
    private readonly storage: Storage,
    partyId: string,
  ) {
    this.keys = storageKeys(partyId);
  }

  read(): StoredSession {
    const service = LoginServiceSchema.safeParse(this.get(this.keys.service));
    const expires = Number(this.get(this.keys.serviceExpiresAt));
    return {
      token: this.get(this.keys.token),
      service: service.success ? service.data : null,
      serviceToken: this.get(this.keys.serviceToken),
      serviceExpiresAt: Number.isFinite(expires) && expires > 0 ? expires : null,
    };
  }

  /** Stores a fresh login from the address. */
  storeLogin(p: LoginParams): void {
    if (p.accessToken) this.put(this.keys.token, p.accessToken);
    if (p.authService) this.put(this.keys.service, p.authService);
    if (p.serviceToken) this.put(this.keys.serviceToken, p.serviceToken);
    if (p.serviceExpiresAt) this.put(this.keys.serviceExpiresAt, String(p.serviceExpiresAt));
  }

  storeToken(token: string): void {
    this.put(this.keys.token, token);
  }

  storeServiceToken(token: string, expiresAt: number | null): void {
    this.put(this.keys.serviceToken, token);
    if (expiresAt === null) this.storage.removeItem(this.keys.serviceExpiresAt);
    else this.put(this.keys.serviceExpiresAt, String(expiresAt));
  }

  /** Signup clears the stored service (spec 4). */
  clearService(): void {
    this.storage.removeItem(this.keys.service);
  }

  /** Logout: clears the token and the stored keys (spec 4). The grant key stays for the next login. */
  clear(): void {
    for (const k of [this.keys.token, this.keys.service, this.keys.serviceToken, this.keys.serviceExpiresAt]) this.storage.removeItem(k);
  }

  get grant(): string | null {
    return this.get(this.keys.grant);
  }

  /** Route `/grant/{grantToken}` stores the token under the party grant key (spec 2). */
  storeGrant(token: string): void {
    this.put(this.keys.grant, token);
  }

  /** Forgets the grant key once the server refused its link (expired, used up, revoked). */
  forgetGrant(): void {
    try {
      this.storage.removeItem(this.keys.grant);
    } catch {
      // Storage unavailable: nothing stored either.
    }
  }

  private get(key: string): string | null {
    try {
      return this.storage.getItem(key);
    } catch {
      return null;
    }
  }

  private put(key: string, value: string): void {
    try {
      this.storage.setItem(key, value);
    } catch {
      // Storage full or disabled (private mode): the session lasts for this page only.
    }
  }
}
