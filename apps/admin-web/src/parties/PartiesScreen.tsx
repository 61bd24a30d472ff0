import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Badge, Button, Group, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { PartyId, type Party } from '@fanfare/protocol';
import { Empty, QueryState } from '../ui/States.tsx';
import { useNow } from '../ui/useNow.ts';
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
                </Anchor>{' '}
                <Anchor component={Link} size="sm" to={`/parties/${encodeURIComponent(p.id)}/dashboard`}>
                  dashboard
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

type Filter = 'all' | PartyPhase;

/** Every party (`GET /api/parties`), grouped live, upcoming and ended; filtered by phase and name. */
export default function PartiesScreen() {
  const parties = useParties();
  const now = useNow();
  const [filter, setFilter] = useState<Filter>('all');
  const [text, setText] = useState('');
  const needle = text.trim().toLowerCase();
  return (
    <Stack gap="lg">
      <Title order={1}>Parties</Title>
      <OpenParty />
      <Group gap="md" wrap="wrap" align="flex-end">
        <SegmentedControl
          aria-label="Show parties"
          value={filter}
          onChange={(v) => setFilter(v as Filter)}
          data={[{ value: 'all', label: 'All' }, ...PHASES.map((p) => ({ value: p.phase, label: p.label }))]}
        />
        <TextInput label="Search" placeholder="Name or id" value={text} onChange={(e) => setText(e.currentTarget.value)} w={240} />
      </Group>
      <QueryState query={parties}>
        {({ items }) => {
          if (items.length === 0) return <Empty title="No parties yet">Create one with a new id above.</Empty>;
          const matching = items.filter((p) => needle === '' || p.name.toLowerCase().includes(needle) || p.id.toLowerCase().includes(needle));
          const groups = PHASES.filter(({ phase }) => filter === 'all' || filter === phase)
            .map((g) => ({ ...g, list: matching.filter((p) => partyPhase(p, now) === g.phase) }))
            .filter((g) => g.list.length > 0);
          if (groups.length === 0) return <Empty title="No parties match">Change the filter or the search.</Empty>;
          return groups.map(({ phase, label, color, list }) => (
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
          ));
        }}
      </QueryState>
    </Stack>
  );
}
