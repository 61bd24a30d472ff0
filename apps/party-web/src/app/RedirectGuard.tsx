import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from './router.tsx';
import { useParty, useServices } from './context.tsx';
import { roleOf } from '../state/store.ts';
import { isHostOrAdmin } from '../rules/roles.ts';
import { isAdminPreview, redirectFrom, waitingRoomOpensAtMs } from '../rules/redirect.ts';
import { parseStoredKey, readPartyTokenGate, tokenGateAccessStorageKey, tokenGateRedirect, type GateAccess } from '../rules/tokenGate.ts';
import { readCampaignConfig } from '../env/environment.ts';
import { TOKEN_GATE_ACCESS_KEY_HEADER, WEB_CONFIG_META, parseWebConfig } from '@fanfare/protocol';

/** The campaign pages' gate key and the CMS's `verify_access`, through the typed CMS client (loaded only for a gated party). */
const browserGateAccess: GateAccess = {
  storedKey: (campaignId) => {
    try {
      return parseStoredKey(window.localStorage.getItem(tokenGateAccessStorageKey(campaignId)));
    } catch {
      return null; // storage blocked: no key
    }
  },
  verify: async (campaignId, key) => {
    const web = parseWebConfig(document.querySelector(`meta[name="${WEB_CONFIG_META}"]`)?.getAttribute('content'));
    const { createCmsClient } = await import('@fanfare/client/cms');
    const cms = createCmsClient({ baseUrl: web.ok ? web.config.cmsUrl : window.location.origin });
    const result = await cms.call('tokenGateVerify', { params: { id: campaignId } }, { includeToken: false, headers: { [TOKEN_GATE_ACCESS_KEY_HEADER]: key } });
    return result.has_access;
  },
};

/** Longest single timer (browsers overflow past 2^31-1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Runs the redirect rule (spec 2) on every route change, on every party_changed, and when the
 * waiting room opens or the end time passes. Admins are never redirected and keep the query.
 */
export function RedirectGuard() {
  const location = useLocation();
  const navigate = useNavigate();
  const party = useParty((s) => s.party);
  const partyVersion = useParty((s) => s.partyVersion);
  const isAdminRole = useParty((s) => roleOf(s) === 'admin');
  // The editor previews any screen with the admin flag in the address (spec 2).
  const isAdmin = isAdminRole || isAdminPreview(location.search) || isAdminPreview(window.location.search);
  // A host prepares before the waiting room opens; so may whoever holds a grant link, to log in.
  const services = useServices();
  const isHost = useParty((s) => isHostOrAdmin(roleOf(s)));
  const mayPrepare = isHost || services.storage.grant !== null;
  // Signed in but the profile (and with it the role) not loaded yet: the gate waits for the role.
  const isRolePending = useParty((s) => s.token !== null && s.user === null && s.systemUser === null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (!party) return;
    const target = redirectFrom(location.pathname, party, Date.now(), isAdmin, mayPrepare);
    if (target) void navigate(target, { replace: true });
  }, [location.pathname, party, partyVersion, isAdmin, mayPrepare, tick, navigate]);

  // Spec 2: a party whose campaign has a token gate sends fans without access to the gate; admins skip it.
  useEffect(() => {
    if (!party || isRolePending) return;
    let isCurrent = true;
    void tokenGateRedirect(readPartyTokenGate(readCampaignConfig(document, window)), isAdmin, browserGateAccess).then((url) => {
      if (isCurrent && url) window.location.assign(url);
    });
    return () => {
      isCurrent = false;
    };
  }, [party, isAdmin, isRolePending]);

  // Re-check at the next moment the rule's answer can change.
  useEffect(() => {
    if (!party) return;
    const now = Date.now();
    const moments = [waitingRoomOpensAtMs(party), party.ends_at ? Date.parse(party.ends_at) : Infinity].filter((m) => m > now);
    if (moments.length === 0) return;
    const wait = Math.min(Math.min(...moments) - now + 50, MAX_TIMER_MS);
    const timer = setTimeout(() => setTick((n) => n + 1), wait);
    return () => clearTimeout(timer);
  }, [party, tick]);
  return null;
}
