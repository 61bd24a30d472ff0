import { useState, type ReactNode } from 'react';
import { Badge, Button, Code, Group, Select, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { EntityVersion, EntityVersionsResponse, VersionDiff } from '@fanfare/protocol';
import { FOCUSABLE_SCROLL } from './focusableScroll.ts';
import { notifyDone, notifyError } from './notify.ts';
import { Empty, Failed, Loading } from './States.tsx';

const when = (iso: string) => new Date(iso).toLocaleString();
const label = (v: EntityVersion) => `Version ${v.version} · ${v.action} · ${v.actor}`;

/** How a history restores an old version: the call, and what to say once it is done. */
export interface VersionRestore<T> {
  run: (version: number) => Promise<T>;
  /** The "done" message, e.g. "Version 2 restored as version 5". */
  doneMessage: (version: number, result: T) => string;
  onRestored: (result: T) => void;
  /** The confirm button's text, e.g. "Restore as new draft". */
  confirmLabel: string;
}

/**
 * An entity's versions (who saved each, when), the fields that differ between two of them, and
 * restore: a restore saves the old fields as a new version, so nothing of the history is lost.
 * Shared by campaigns and parties; each passes its own calls.
 */
export function VersionHistory<T>(props: {
  versions: UseQueryResult<EntityVersionsResponse>;
  /** The query key prefix of this entity's diffs (the two version numbers are appended). */
  diffKey: readonly unknown[];
  loadDiff: (from: number, to: number) => Promise<VersionDiff>;
  /** The version the editor now holds (no restore offered on it), with its badge. */
  current: { version: number; badge: string } | null;
  /** Absent when the caller may not restore. */
  restore?: VersionRestore<T>;
  empty: ReactNode;
  /** The versions table's accessible name (and test id, when given). */
  tableLabel?: string;
  tableTestId?: string;
}) {
  const { versions, restore, current } = props;
  const [confirming, setConfirming] = useState<number | null>(null);
  const [isRestoring, setRestoring] = useState(false);
  const items = versions.data?.items ?? [];
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);
  // Until two are chosen, compare the latest with the one before it.
  const a = from ?? items[1]?.version ?? null;
  const b = to ?? items[0]?.version ?? null;
  const diff = useQuery({
    queryKey: [...props.diffKey, a ?? 0, b ?? 0],
    queryFn: () => props.loadDiff(a ?? 0, b ?? 0),
    enabled: a !== null && b !== null && a !== b,
  });

  if (versions.isPending) return <Loading label="Loading the history…" />;
  if (versions.isError) return <Failed error={versions.error} retry={() => void versions.refetch()} />;
  if (items.length === 0) return <Empty title="No versions yet">{props.empty}</Empty>;

  const runRestore = async (version: number) => {
    if (!restore) return;
    setRestoring(true);
    try {
      const result = await restore.run(version);
      setConfirming(null);
      restore.onRestored(result);
      notifyDone(restore.doneMessage(version, result));
    } catch (e) {
      notifyError(e, 'Could not restore');
    } finally {
      setRestoring(false);
    }
  };

  const options = items.map((v) => ({ value: String(v.version), label: label(v) }));
  return (
    <Stack>
      <Table.ScrollContainer minWidth={560} {...FOCUSABLE_SCROLL}>
        <Table striped aria-label={props.tableLabel ?? 'Versions'} data-testid={props.tableTestId}>
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
                    {v.version === current?.version && (
                      <Badge color="gray.7" variant="filled" size="sm">
                        {current.badge}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{v.action}</Table.Td>
                <Table.Td>{v.actor}</Table.Td>
                <Table.Td>{when(v.created_at)}</Table.Td>
                <Table.Td>
                  {restore && v.version !== current?.version && confirming !== v.version && (
                    <Button size="xs" variant="default" onClick={() => setConfirming(v.version)} aria-label={`Restore version ${v.version}`}>
                      Restore
                    </Button>
                  )}
                  {restore && confirming === v.version && (
                    <Group gap={6} role="group" aria-label={`Confirm restoring version ${v.version}`}>
                      <Button size="xs" color="dark" autoFocus loading={isRestoring} onClick={() => void runRestore(v.version)}>
                        {restore.confirmLabel}
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

      <Title order={3} size="h4">
        Compare two versions
      </Title>
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
