import { Link, useLocation } from 'react-router';
import { Anchor, Group } from '@mantine/core';

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
