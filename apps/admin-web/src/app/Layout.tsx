import { Suspense } from 'react';
import { NavLink as RouterLink, Outlet, useNavigate } from 'react-router';
import { AppShell, Burger, Button, Group, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { cmsRolesCan } from '@fanfare/protocol';
import { useApi, useSession, useSessionStore } from '../api/context.tsx';
import { Loading } from '../ui/States.tsx';
import { SECTIONS } from './sections.tsx';

/** The frame of every signed-in screen: header, navigation (a drawer below 768 px) and the screen. */
export function Layout() {
  const [opened, { toggle, close }] = useDisclosure();
  const session = useSession();
  const store = useSessionStore();
  const api = useApi();
  const navigate = useNavigate();
  const roles = session?.user.roles ?? [];
  const signOut = async () => {
    await api.users.logout().catch(() => undefined);
    store.signOut();
    await navigate('/sign-in');
  };
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Title order={1} size="h4">
              Fanfare back office
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" c="dimmed" visibleFrom="sm" data-testid="signed-in-as">
              {session?.user.email} ({roles.join(', ') || 'no role'})
            </Text>
            <Button variant="default" size="xs" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Sections">
        {SECTIONS.filter((s) => cmsRolesCan(roles, s.permission)).map((s) => (
          <NavLink key={s.path} component={RouterLink} to={`/${s.path}`} label={s.label} onClick={close} variant="filled" />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
