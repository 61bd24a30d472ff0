import { Stack, Table, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context.tsx';
import { FOCUSABLE_SCROLL } from '../ui/focusableScroll.ts';
import { Empty, Failed, Loading } from '../ui/States.tsx';

/** Every saved version of the party's settings: who saved it and when (each save is in the audit log too). */
export function PartyHistoryPanel({ partyId, savedAt }: { partyId: string; savedAt: string }) {
  const api = useApi();
  const versions = useQuery({ queryKey: ['party-versions', partyId, savedAt], queryFn: () => api.editorial.partyVersions(partyId) });
  return (
    <Stack gap="xs" component="section" aria-labelledby="party-history-heading">
      <Title order={2} size="h4" id="party-history-heading">
        Settings history
      </Title>
      {versions.isPending ? (
        <Loading label="Loading the history…" />
      ) : versions.isError ? (
        <Failed error={versions.error} retry={() => void versions.refetch()} />
      ) : versions.data.items.length === 0 ? (
        <Empty title="No saved versions yet">Saves from the back office from now on are listed here.</Empty>
      ) : (
        <Table.ScrollContainer minWidth={480} {...FOCUSABLE_SCROLL}>
          <Table striped aria-label="Party settings versions" data-testid="party-versions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Version</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>When</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {versions.data.items.map((v) => (
                <Table.Tr key={v.version}>
                  <Table.Td>{v.version}</Table.Td>
                  <Table.Td>{v.actor}</Table.Td>
                  <Table.Td>{new Date(v.created_at).toLocaleString()}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
