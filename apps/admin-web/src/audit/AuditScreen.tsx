import { useState } from 'react';
import { Button, Code, Group, Modal, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditEntry, AuditLogQuery } from '@fanfare/protocol';
import { useApi } from '../api/context.tsx';
import { FOCUSABLE_SCROLL } from '../ui/focusableScroll.ts';
import { notifyError } from '../ui/notify.ts';
import { Pager } from '../ui/Pager.tsx';
import { Empty, Failed, Loading } from '../ui/States.tsx';

const PAGE_SIZE = 25;
/** The kinds of entity back-office calls write (the first part of their path). */
const ENTITY_TYPES = ['campaigns', 'parties', 'apps', 'users', 'uploads', 'newsletter', 'token_gate', 'data-rights'];

/** A side of an entry, indented when it is JSON. */
function pretty(text: string | null): string {
  if (text === null) return '(none)';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * The audit log (admins): every back-office write with who, which call, on what and when, the
 * entity before and after; filter by actor and entity, paged on the server, exported as CSV.
 */
export default function AuditScreen() {
  const api = useApi();
  const [actor, setActor] = useState('');
  const [entityType, setEntityType] = useState<string | null>(null);
  const [entityId, setEntityId] = useState('');
  const [debouncedActor] = useDebouncedValue(actor.trim(), 250);
  const [debouncedId] = useDebouncedValue(entityId.trim(), 250);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<AuditEntry | null>(null);
  const filter = { actor: debouncedActor || undefined, entity_type: entityType ?? undefined, entity_id: debouncedId || undefined };
  const query: AuditLogQuery = { ...filter, page, page_size: PAGE_SIZE };
  const entries = useQuery({ queryKey: ['audit', query], queryFn: () => api.audit.page(query), placeholderData: keepPreviousData });
  const filtered = Boolean(filter.actor || filter.entity_type || filter.entity_id);
  const reset = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };

  // The export is a download with the bearer token, so it goes through fetch and a blob link.
  const [exporting, setExporting] = useState(false);
  const download = async () => {
    setExporting(true);
    try {
      const url = URL.createObjectURL(await api.audit.csv(filter));
      const a = document.createElement('a');
      a.href = url;
      a.download = 'audit-log.csv';
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      notifyError(e, 'Export failed');
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack>
      <Title order={2}>Audit log</Title>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput label="Who (e-mail contains)" value={actor} onChange={(e) => reset(setActor)(e.currentTarget.value)} w={{ base: '100%', sm: 220 }} />
        <Select label="Entity" placeholder="Any entity" clearable clearButtonProps={{ 'aria-label': 'Clear' }} data={ENTITY_TYPES} value={entityType} onChange={reset(setEntityType)} w={{ base: '100%', sm: 180 }} />
        <TextInput label="Entity id" value={entityId} onChange={(e) => reset(setEntityId)(e.currentTarget.value)} w={{ base: '100%', sm: 220 }} />
        <Button variant="default" onClick={() => void download()} loading={exporting}>
          Export CSV
        </Button>
      </Group>
      {entries.isPending ? (
        <Loading label="Loading the audit log…" />
      ) : entries.isError ? (
        <Failed error={entries.error} retry={() => void entries.refetch()} />
      ) : entries.data.total === 0 ? (
        <Empty title={filtered ? 'No entry matches' : 'Nothing recorded yet'}>{filtered ? 'Change the filters.' : 'Every change made in the back office appears here.'}</Empty>
      ) : (
        <>
          <Table.ScrollContainer minWidth={720} {...FOCUSABLE_SCROLL}>
            <Table striped aria-label="Audit log" data-testid="audit-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Who</Table.Th>
                  <Table.Th>What</Table.Th>
                  <Table.Th>Entity</Table.Th>
                  <Table.Th>Changes</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.data.items.map((e) => (
                  <Table.Tr key={e.id}>
                    <Table.Td>{new Date(e.created_at).toLocaleString()}</Table.Td>
                    <Table.Td>{e.actor}</Table.Td>
                    <Table.Td>
                      <Code>{e.action}</Code>
                    </Table.Td>
                    <Table.Td>
                      {e.entity_type}
                      {e.entity_id ? ` ${e.entity_id}` : ''}
                    </Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="default" onClick={() => setOpen(e)} aria-label={`Before / after: ${e.action} at ${new Date(e.created_at).toLocaleString()}`}>
                        Before / after
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager total={entries.data.total} page={page} pageSize={PAGE_SIZE} onChange={setPage} noun="entries" />
        </>
      )}
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={open ? `${open.action} by ${open.actor}` : ''} size="xl">
        {open && (
          <Stack gap="xs">
            <Text size="sm">
              {open.method} {open.path}
            </Text>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <Stack gap={4}>
                <Text fw={600} size="sm">
                  Before
                </Text>
                {/* The block scrolls in its own box: it takes focus so the arrow keys scroll it. */}
                <Code block tabIndex={0} role="region" aria-label="Before" style={{ maxHeight: 400, overflow: 'auto' }}>
                  {pretty(open.before)}
                </Code>
              </Stack>
              <Stack gap={4}>
                <Text fw={600} size="sm">
                  After
                </Text>
                {/* The block scrolls in its own box: it takes focus so the arrow keys scroll it. */}
                <Code block tabIndex={0} role="region" aria-label="After" style={{ maxHeight: 400, overflow: 'auto' }}>
                  {pretty(open.after)}
                </Code>
              </Stack>
            </SimpleGrid>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
