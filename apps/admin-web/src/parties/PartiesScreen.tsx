import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Badge, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { PartyId, type Party } from '@fanfare/protocol';
import { Empty, Failed, Loading } from '../ui/States.tsx';
import { useNow } from '../ui/useNow.ts';
import { knownPartyIds } from './knownParties.ts';
import { partyPhase, type PartyPhase } from './partyForm.ts';
import { useParties } from './queries.ts';

const PHASES: { phase: PartyPhase; label: string; color: string }[] = [
  { phase: 'live', label: 'Live', color: 'green' },
  { phase: 'upcoming', label: 'Upcoming', color: 'indigo' },
  { phase: 'ended', label: 'Ended', color: 'gray' },
];

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'open-ended');

function PartyTable({ parties }: { parties: Party[] }) {
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Id</Table.Th>
            <Table.Th>Starts</Table.Th>
            <Table.Th>Ends</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {parties.map((p) => (
            <Table.Tr key={p.id}>
              <Table.Td>
                <Anchor component={Link} to={`/parties/${encodeURIComponent(p.id)}`}>
                  {p.name}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {p.id}
                </Text>
              </Table.Td>
              <Table.Td>{when(p.starts_at)}</Table.Td>
              <Table.Td>{when(p.ends_at)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Opens a party by id, or creates it: `PUT /api/parties/{id}` creates a party that does not exist. */
function OpenParty() {
  const navigate = useNavigate();
  const [id, setId] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = PartyId.safeParse(id.trim());
        if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Invalid id');
        void navigate(`/parties/${encodeURIComponent(parsed.data)}`);
      }}
    >
      <Group align="flex-end" wrap="wrap">
        <TextInput label="Party id" description="Open a party, or create one with a new id" value={id} onChange={(e) => (setId(e.currentTarget.value), setError(null))} error={error} w={320} />
        <Button type="submit">Open or create</Button>
      </Group>
    </form>
  );
}

/** The parties this browser knows, grouped live, upcoming and ended. */
export default function PartiesScreen() {
  const [ids] = useState(knownPartyIds);
  const results = useParties(ids);
  const now = useNow();
  const loaded = results.flatMap((r) => (r.data ? [r.data] : []));
  const failed = results.filter((r) => r.isError);
  const pending = results.some((r) => r.isPending);
  return (
    <Stack gap="lg">
      <Title order={1}>Parties</Title>
      <OpenParty />
      {pending && <Loading label="Loading parties…" />}
      {failed.length > 0 && <Failed error={failed[0]!.error} retry={() => failed.forEach((r) => void r.refetch())} />}
      {!pending && ids.length === 0 && <Empty title="No parties yet">Create one with a new id above; it will be listed here.</Empty>}
      {PHASES.map(({ phase, label, color }) => {
        const list = loaded.filter((p) => partyPhase(p, now) === phase).sort((a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at));
        if (list.length === 0) return null;
        return (
          <Stack key={phase} gap="xs" component="section" aria-label={`${label} parties`}>
            <Group gap="xs">
              <Title order={2} size="h3">
                {label}
              </Title>
              <Badge color={color} variant="light">
                {list.length}
              </Badge>
            </Group>
            <PartyTable parties={list} />
          </Stack>
        );
      })}
    </Stack>
  );
}
