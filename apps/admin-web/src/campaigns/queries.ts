import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Campaign, CampaignsPageQuery, CloneCampaignBody, CreateCampaignBody, PatchCampaignBody } from '@fanfare/protocol';
import { useApi } from '../api/context.tsx';

export const campaignKeys = {
  all: ['campaigns'] as const,
  page: (q: CampaignsPageQuery) => ['campaigns', 'page', q] as const,
  one: (id: string) => ['campaigns', 'one', id] as const,
};

/** One page of the campaigns list; the previous page stays on screen while the next loads. */
export function useCampaignsPage(query: CampaignsPageQuery) {
  const api = useApi();
  return useQuery({ queryKey: campaignKeys.page(query), queryFn: () => api.campaigns.page(query), placeholderData: keepPreviousData });
}

export function useCampaign(id: string) {
  const api = useApi();
  return useQuery({ queryKey: campaignKeys.one(id), queryFn: () => api.campaigns.get(id) });
}

export function useApps() {
  const api = useApi();
  return useQuery({ queryKey: ['apps'], queryFn: () => api.apps.list(), staleTime: 60_000 });
}

export function useCountries() {
  const api = useApi();
  return useQuery({ queryKey: ['countries'], queryFn: () => api.i18n.countries(), staleTime: Infinity });
}

/** Every campaign mutation refreshes the lists (and the one campaign it changed). */
function useInvalidate() {
  const qc = useQueryClient();
  return (c?: Campaign) => {
    void qc.invalidateQueries({ queryKey: campaignKeys.all });
    if (c) qc.setQueryData(campaignKeys.one(c.id), c);
  };
}

export function useCreateCampaign() {
  const api = useApi();
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (body: CreateCampaignBody) => api.campaigns.create(body), onSuccess: invalidate });
}

export function useCloneCampaign() {
  const api = useApi();
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: ({ id, body }: { id: string; body: CloneCampaignBody }) => api.campaigns.clone(id, body), onSuccess: invalidate });
}

export function useDeleteCampaign() {
  const api = useApi();
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api.campaigns.remove(id), onSuccess: () => invalidate() });
}

export function usePatchCampaign(id: string) {
  const api = useApi();
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (body: PatchCampaignBody) => api.campaigns.patch(id, body), onSuccess: invalidate });
}
