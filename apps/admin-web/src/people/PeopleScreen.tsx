import { useState } from 'react';
import { Badge, Button, Checkbox, Group, Menu, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CMS_ROLES, CreateCmsUserBody, type CmsRole, type CmsUser, type CmsUserState } from '@fanfare/protocol';
import { useApi, useSession } from '../api/context.tsx';
import { zodResolver } from '../forms/zodResolver.ts';
import { notifyDone, notifyError } from '../ui/notify.ts';
import { Empty, Failed, Loading } from '../ui/States.tsx';
import { FOCUSABLE_SCROLL } from '../ui/focusableScroll.ts';

const STATE_COLOURS: Record<CmsUserState, string> = { active: 'teal.9', pending: 'violet.9', disabled: 'gray.7' };

/** Back-office users: invite by e-mail, roles, activate and disable (admins only; the server enforces it). */
export default function PeopleScreen() {
  const api = useApi();
  const users = useQuery({ queryKey: ['users'], queryFn: () => api.users.list() });
  const [inviting, invite] = useDisclosure(false);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>People</Title>
        <Button onClick={invite.open}>Invite someone</Button>
      </Group>
      {users.isPending ? (
        <Loading label="Loading people…" />
      ) : users.isError ? (
        <Failed error={users.error} retry={() => void users.refetch()} />
      ) : users.data.items.length === 0 ? (
        <Empty title="Nobody yet" />
      ) : (
        <Table.ScrollContainer minWidth={340} {...FOCUSABLE_SCROLL}>
          <Table striped aria-label="People">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>E-mail</Table.Th>
                {/* On a phone the name gives way, so roles, state and its change fit the screen. */}
                <Table.Th visibleFrom="sm">Name</Table.Th>
                <Table.Th>Roles</Table.Th>
                <Table.Th>State</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.data.items.map((u) => (
                <UserRow key={u.id} user={u} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <InviteModal opened={inviting} onClose={invite.close} />
    </Stack>
  );
}

function UserRow({ user }: { user: CmsUser }) {
  const api = useApi();
  const qc = useQueryClient();
  const me = useSession()?.user;
  const done = (u: CmsUser) => {
    void qc.invalidateQueries({ queryKey: ['users'] });
    notifyDone(`${u.email}: ${u.state}, ${u.roles.join(', ') || 'no role'}`);
  };
  const setState = useMutation({ mutationFn: (state: CmsUserState) => api.users.setState(user.id, state), onSuccess: done, onError: (e) => notifyError(e) });
  const setRoles = useMutation({ mutationFn: (roles: CmsRole[]) => api.users.setRoles(user.id, roles), onSuccess: done, onError: (e) => notifyError(e) });
  const toggle = (role: CmsRole) => setRoles.mutate(user.roles.includes(role) ? user.roles.filter((r) => r !== role) : [...user.roles, role]);
  return (
    <Table.Tr>
      <Table.Td>
        {user.email}
        {user.id === me?.id ? ' (you)' : ''}
      </Table.Td>
      <Table.Td visibleFrom="sm">{user.name || '—'}</Table.Td>
      <Table.Td>
        <Stack gap={6}>
          {CMS_ROLES.map((r) => (
            <Checkbox key={r} label={r} checked={user.roles.includes(r)} onChange={() => toggle(r)} disabled={setRoles.isPending} aria-label={`${r} role for ${user.email}`} />
          ))}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Stack gap={6} align="flex-start">
          <Badge color={STATE_COLOURS[user.state]} variant="filled">
            {user.state}
          </Badge>
          <Menu position="bottom-end">
            <Menu.Target>
              <Button size="xs" variant="default" aria-label={`Change state of ${user.email}`}>
                State…
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {user.state !== 'active' && <Menu.Item onClick={() => setState.mutate('active')}>Activate</Menu.Item>}
              {user.state !== 'disabled' && (
                <Menu.Item color="red" onClick={() => setState.mutate('disabled')}>
                  Disable
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

/** An invitation: the user gets an e-mail to set a password (no password is chosen for them). */
function InviteModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const api = useApi();
  const qc = useQueryClient();
  const [roles, setRoles] = useState<CmsRole[]>(['editor']);
  const form = useForm({ initialValues: { email: '', name: '' }, validate: zodResolver(CreateCmsUserBody) });
  const create = useMutation({
    mutationFn: (v: { email: string; name: string }) => api.users.create({ email: v.email, name: v.name || undefined, roles }),
    onSuccess: (u) => {
      void qc.invalidateQueries({ queryKey: ['users'] });
      notifyDone(`Invitation sent to ${u.email}`);
      form.reset();
      onClose();
    },
    onError: (e) => notifyError(e, 'Could not invite'),
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Invite someone">
      <form onSubmit={form.onSubmit((v) => create.mutate(v))} noValidate>
        <Stack>
          <TextInput label="E-mail" type="email" required {...form.getInputProps('email')} />
          <TextInput label="Name" {...form.getInputProps('name')} />
          <Checkbox.Group label="Roles" value={roles} onChange={(v) => setRoles(v as CmsRole[])}>
            <Group mt={4}>
              {CMS_ROLES.map((r) => (
                <Checkbox key={r} value={r} label={r} />
              ))}
            </Group>
          </Checkbox.Group>
          <Text size="xs" c="dimmed">
            They receive an e-mail with a link to set their password (valid for 72 hours).
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
