import type { Campaign } from '@fanfare/protocol';
import { useApi, useCan } from '../../api/context.tsx';
import { VersionHistory } from '../../ui/VersionHistory.tsx';
import { editorialKeys, useRestore, useVersions } from './queries.ts';

/**
 * The campaign's versions (who saved each, when), the fields that differ between two of them, and
 * restore: a restore saves the old fields as a new draft version, so nothing of the history is lost.
 */
export function HistoryPanel({ campaign, readOnly, onRestored }: { campaign: Campaign; readOnly: boolean; onRestored: (c: Campaign) => void }) {
  const api = useApi();
  const versions = useVersions(campaign.id);
  const canRestore = useCan('campaigns.publish') && !readOnly;
  const restore = useRestore(campaign.id);
  return (
    <VersionHistory
      versions={versions}
      diffKey={editorialKeys.diffs(campaign.id)}
      loadDiff={(from, to) => api.editorial.diff(campaign.id, from, to)}
      current={{ version: campaign.version, badge: 'draft' }}
      restore={
        canRestore
          ? {
              run: (version) => restore.mutateAsync(version),
              doneMessage: (version, c) => `Version ${version} restored as version ${c.version}`,
              onRestored,
              confirmLabel: 'Restore as new draft',
            }
          : undefined
      }
      empty="Every save makes a version."
    />
  );
}
