import { useState } from 'react';
import { Badge, Button, Code, Group, Select, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import type { Campaign, EntityVersion } from '@fanfare/protocol';
import { useCan } from '../../api/context.tsx';
import { FOCUSABLE_SCROLL } from '../../ui/focusableScroll.ts';
import { notifyDone, notifyError } from '../../ui/notify.ts';
import { Empty, Failed, Loading } from '../../ui/States.tsx';
import { useDiff, useRestore, useVersions } from './queries.ts';

const when = (iso: string) => new Date(iso).toLocaleString();
const label = (v: EntityVersion) => `Version ${v.version} · ${v.action} · ${v.actor}`;

/**
 * The campaign's versions (who saved each, when), the fields that differ between two of them, and
 * restore: a restore saves the old fields as a new version, so nothing of the history is lost.
 */
export function HistoryPanel({ campaign, readOnly, onRestored }: { campaign: Campaign; readOnly: boolean; onRestored: (c: Campaign) => void }) {
  const versions = useVersions(campaign.id);
  const canRestore = useCan('campaigns.publish') && !readOnly;
  const restore = useRestore(campaign.id);
  const [confirming, setConfirming] = useState<number | null>(null);
  const items = versions.data?.items ?? [];
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);
  // Until two are chosen, compare the latest with the one before it.
  const a = from ?? items[1]?.version ?? null;
  const b = to ?? items[0]?.version ?? null;
  const diff = useDiff(campaign.id, a, b);

  if (versions.isPending) return <Loading label="Loading the history…" />;
  if (versions.isError) return <Failed error={versions.error} retry={() => void versions.refetch()} />;
  if (items.length === 0) return <Empty title="No versions yet">Every save makes a version.</Empty>;

  const options = items.map((v) => ({ value: String(v.version), label: label(v) }));
  return (
    <Stack>
      <Table.ScrollContainer minWidth={560} {...FOCUSABLE_SCROLL}>
        <Table striped aria-label="Versions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Version</Table.Th>
              <Table.Th>What</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>When</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((v) => (
              <Table.Tr key={v.version} data-testid={`version-${v.version}`}>
                <Table.Td>
                  <Group gap={6}>
                    {v.version}
                    {v.published && (
                      <Badge color="teal.9" variant="filled" size="sm">
                        public
                      </Badge>
                    )}
                    {v.version === campaign.version && (
                      <Badge color="gray.7" variant="filled" size="sm">
                        draft
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{v.action}</Table.Td>
                <Table.Td>{v.actor}</Table.Td>
                <Table.Td>{when(v.created_at)}</Table.Td>
                <Table.Td>
                  {canRestore && v.version !== campaign.version && confirming !== v.version && (
                    <Button size="xs" variant="default" onClick={() => setConfirming(v.version)} aria-label={`Restore version ${v.version}`}>
                      Restore
                    </Button>
                  )}
                  {confirming === v.version && (
                    <Group gap={6} role="group" aria-label={`Confirm restoring version ${v.version}`}>
                      <Button
                        size="xs"
                        color="dark"
                        autoFocus
                        loading={restore.isPending}
                        onClick={() =>
                          restore.mutate(v.version, {
                            onSuccess: (c) => {
                              setConfirming(null);
                              onRestored(c);
                              notifyDone(`Version ${v.version} restored as version ${c.version}`);
                            },
                            onError: (e) => notifyError(e, 'Could not restore'),
                          })
                        }
                      >
                        Restore as new draft
                      </Button>
                      <Button size="xs" variant="default" onClick={() => setConfirming(null)}>
                        Cancel
                      </Button>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <Title order={4}>Compare two versions</Title>
      {items.length < 2 ? (
        <Text size="sm" c="dimmed">
          There is one version so far: save a change to compare.
        </Text>
      ) : (
        <>
          <Group gap="sm" wrap="wrap">
            <Select label="From" data={options} value={a === null ? null : String(a)} onChange={(v) => setFrom(v ? Number(v) : null)} allowDeselect={false} w={{ base: '100%', sm: 320 }} />
            <Select label="To" data={options} value={b === null ? null : String(b)} onChange={(v) => setTo(v ? Number(v) : null)} allowDeselect={false} w={{ base: '100%', sm: 320 }} />
          </Group>
          {a === b ? (
            <Text size="sm" c="dimmed">
              Choose two different versions.
            </Text>
          ) : diff.isPending ? (
            <Loading label="Comparing…" />
          ) : diff.isError ? (
            <Failed error={diff.error} retry={() => void diff.refetch()} />
          ) : diff.data.changes.length === 0 ? (
            <Empty title="No differences">These two versions hold the same fields.</Empty>
          ) : (
            <Table.ScrollContainer minWidth={560} {...FOCUSABLE_SCROLL}>
              <Table aria-label="Differences" data-testid="version-diff">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Field</Table.Th>
                    <Table.Th>Version {a}</Table.Th>
                    <Table.Th>Version {b}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {diff.data.changes.map((c) => (
                    <Table.Tr key={c.path}>
                      <Table.Td>
                        <Code>{c.path}</Code>
                      </Table.Td>
                      <Table.Td style={{ wordBreak: 'break-word' }}>{c.before ?? <Text c="dimmed" size="sm">(none)</Text>}</Table.Td>
                      <Table.Td style={{ wordBreak: 'break-word' }}>{c.after ?? <Text c="dimmed" size="sm">(none)</Text>}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      )}
    </Stack>
  );
}
