import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Campaign, PublishCampaignBody, ScheduleCampaignBody } from '@fanfare/protocol';
import { useApi } from '../../api/context.tsx';
import { campaignKeys } from '../queries.ts';

export const editorialKeys = {
  versions: (id: string) => ['campaigns', 'versions', id] as const,
  /** Every diff of a campaign: the history appends the two version numbers. */
  diffs: (id: string) => ['campaigns', 'diff', id] as const,
};

/** A workflow change refreshes the lists, the campaign and its history. */
function useApplied() {
  const qc = useQueryClient();
  return (c: Campaign) => {
    qc.setQueryData(campaignKeys.one(c.id), c);
    void qc.invalidateQueries({ queryKey: campaignKeys.all });
  };
}

export function usePublish(id: string) {
  const api = useApi();
  const applied = useApplied();
  return useMutation({ mutationFn: (body: PublishCampaignBody) => api.editorial.publish(id, body), onSuccess: applied });
}

export function useUnpublish(id: string) {
  const api = useApi();
  const applied = useApplied();
  return useMutation({ mutationFn: () => api.editorial.unpublish(id), onSuccess: applied });
}

export function useSchedule(id: string) {
  const api = useApi();
  const applied = useApplied();
  return useMutation({ mutationFn: (body: ScheduleCampaignBody) => api.editorial.schedule(id, body), onSuccess: applied });
}

export function useRestore(id: string) {
  const api = useApi();
  const applied = useApplied();
  return useMutation({ mutationFn: (version: number) => api.editorial.restore(id, version), onSuccess: applied });
}

export function useVersions(id: string) {
  const api = useApi();
  return useQuery({ queryKey: editorialKeys.versions(id), queryFn: () => api.editorial.versions(id) });
}
