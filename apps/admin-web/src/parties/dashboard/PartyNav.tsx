import { Link, useLocation } from 'react-router';
import { Anchor, Group, Text, Title } from '@mantine/core';

const TABS = [
  { path: '', label: 'Edit' },
  { path: '/dashboard', label: 'Dashboard' },
  { path: '/operations', label: 'Operations' },
  { path: '/recap', label: 'Recap' },
] as const;

/** Links between a party's screens (editor, live dashboard, operations, recap). */
export function PartyNav({ id }: { id: string }) {
  const { pathname } = useLocation();
  const base = `/parties/${encodeURIComponent(id)}`;
  return (
    <Group component="nav" aria-label="Party screens" gap="md">
      {TABS.map((t) => {
        const to = base + t.path;
        const current = pathname === to;
        return (
          <Anchor key={t.label} component={Link} to={to} aria-current={current ? 'page' : undefined} fw={current ? 700 : 400} underline={current ? 'always' : 'hover'}>
            {t.label}
          </Anchor>
        );
      })}
    </Group>
  );
}

/** The heading of a party's screen: its title, the party id and the links to its other screens. */
export function PartyScreenHeader({ title, id }: { title: string; id: string }) {
  return (
    <Group justify="space-between" align="flex-end">
      <div>
        <Title order={2}>{title}</Title>
        <Text c="dimmed" size="sm" ff="monospace">
          {id}
        </Text>
      </div>
      <PartyNav id={id} />
    </Group>
  );
}
