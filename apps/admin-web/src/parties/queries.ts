import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Grant, PostGrantBody } from '@fanfare/protocol';
import { usePartyApi, type CatalogQuery } from './partyApi.ts';

export const partyKey = (id: string) => ['party', id] as const;
export const tracksKey = (id: string) => ['party', id, 'tracks'] as const;
export const grantsKey = (id: string) => ['party', id, 'grants'] as const;

export function useParty(id: string, enabled = true) {
  const api = usePartyApi();
  return useQuery({ queryKey: partyKey(id), queryFn: () => api.get(id), enabled, retry: (n, e) => (e as { status?: number }).status !== 404 && n < 2 });
}

/** The party's stored tracks, options and excluded ids (`GET .../tracks`). */
export function usePartyTracks(id: string, enabled = true) {
  const api = usePartyApi();
  return useQuery({ queryKey: tracksKey(id), queryFn: () => api.tracks(id), enabled });
}

export function useParties() {
  const api = usePartyApi();
  return useQuery({ queryKey: ['parties'], queryFn: () => api.list() });
}

/** A catalog lookup; null while nothing is asked. A not-found answer is not retried. */
export function useCatalogLookup(q: CatalogQuery | null) {
  const api = usePartyApi();
  return useQuery({
    queryKey: ['catalog', q?.service, q?.type, q?.country, q?.id],
    queryFn: () => api.lookup(q!),
    enabled: q !== null && q.id !== '',
    retry: (n, e) => (e as { status?: number }).status !== 404 && n < 1,
    staleTime: 5 * 60_000,
  });
}

export function useGrants(id: string) {
  const api = usePartyApi();
  return useQuery({ queryKey: grantsKey(id), queryFn: () => api.grants(id) });
}

export function useAddGrant(id: string) {
  const api = usePartyApi();
  const qc = useQueryClient();
  return useMutation({ mutationFn: (body: PostGrantBody) => api.addGrant(id, body), onSuccess: () => qc.invalidateQueries({ queryKey: grantsKey(id) }) });
}

/** Revokes a grant: an account grant by its account, a link by its grant id (the list shows no token). */
export function useRevokeGrant(id: string) {
  const api = usePartyApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (g: Pick<Grant, 'id' | 'service' | 'service_id'>) => (g.service && g.service_id ? api.revokeAccount(id, g.service, g.service_id) : api.revokeToken(id, g.id)),
    onSuccess: () => qc.invalidateQueries({ queryKey: grantsKey(id) }),
  });
}
