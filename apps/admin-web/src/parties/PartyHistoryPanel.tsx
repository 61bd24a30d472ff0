import { Stack, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Party } from '@fanfare/protocol';
import { useApi, useCan } from '../api/context.tsx';
import { VersionHistory } from '../ui/VersionHistory.tsx';
import { usePartyApi } from './partyApi.ts';
import { partyKey } from './queries.ts';

/**
 * Every saved version of the party's settings: who saved it and when (each save is in the audit
 * log too), what changed between two of them, and restore (saved as a new version).
 */
export function PartyHistoryPanel({ partyId, savedAt }: { partyId: string; savedAt: string }) {
  const api = useApi();
  const party = usePartyApi();
  const qc = useQueryClient();
  const canRestore = useCan('party.admin');
  const versions = useQuery({ queryKey: ['party-versions', partyId, savedAt], queryFn: () => api.editorial.partyVersions(partyId) });
  const latest = versions.data?.items[0]?.version;
  return (
    <Stack gap="xs" component="section" aria-labelledby="party-history-heading">
      <Title order={2} size="h4" id="party-history-heading">
        Settings history
      </Title>
      <VersionHistory<Party>
        versions={versions}
        diffKey={['party-diff', partyId]}
        loadDiff={(from, to) => api.editorial.partyDiff(partyId, from, to)}
        current={latest === undefined ? null : { version: latest, badge: 'current' }}
        restore={
          canRestore
            ? {
                run: (version) => party.restoreVersion(partyId, version),
                doneMessage: (version) => `Version ${version} restored: its settings are the party's again`,
                // The editor's form is keyed by the party's updated_at: it shows the restored settings.
                onRestored: (restored) => {
                  qc.setQueryData(partyKey(partyId), restored);
                  void qc.invalidateQueries({ queryKey: ['parties'] });
                },
                confirmLabel: 'Restore these settings',
              }
            : undefined
        }
        empty="Saves from the back office from now on are listed here."
        tableLabel="Party settings versions"
        tableTestId="party-versions"
      />
    </Stack>
  );
}
