import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PostGrantBody } from '@fanfare/protocol';
import { usePartyApi } from './partyApi.ts';

export const partyKey = (id: string) => ['party', id] as const;
export const grantsKey = (id: string) => ['party', id, 'grants'] as const;

export function useParty(id: string, enabled = true) {
  const api = usePartyApi();
  return useQuery({ queryKey: partyKey(id), queryFn: () => api.get(id), enabled });
}

export function useParties() {
  const api = usePartyApi();
  return useQuery({ queryKey: ['parties'], queryFn: () => api.list() });
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

export function useRevokeGrant(id: string) {
  const api = usePartyApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (g: { token: string | null; service: 'spotify' | 'apple' | null; service_id: string | null }) =>
      g.token ? api.revokeToken(id, g.token) : api.revokeAccount(id, g.service!, g.service_id!),
    onSuccess: () => qc.invalidateQueries({ queryKey: grantsKey(id) }),
  });
}
