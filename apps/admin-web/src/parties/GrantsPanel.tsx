import { ActionIcon, Button, CopyButton, Group, NumberInput, Select, Stack, Table, Text, TextInput, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { GRANT_LINK_DEFAULT_MAX_USES, GRANT_LINK_DEFAULT_TTL_DAYS, GRANT_ROLES, PostGrantBody, type Grant, type GrantRole } from '@fanfare/protocol';
import { useState } from 'react';
import { zodResolver } from '../forms/zodResolver.ts';
import { notifyDone, notifyError } from '../ui/notify.ts';
import { Empty, QueryState } from '../ui/States.tsx';
import { useAddGrant, useGrants, useRevokeGrant } from './queries.ts';

interface GrantValues {
  role: GrantRole;
  display_name: string;
  max_uses: number;
  expires_in_days: number;
}

/** A new grant link: the full link is shown once (the server answers it only on creation). */
function AddGrantLink({ partyId }: { partyId: string }) {
  const add = useAddGrant(partyId);
  const [link, setLink] = useState<string | null>(null);
  const form = useForm<GrantValues>({
    initialValues: { role: 'host', display_name: '', max_uses: GRANT_LINK_DEFAULT_MAX_USES, expires_in_days: GRANT_LINK_DEFAULT_TTL_DAYS },
    validate: zodResolver<GrantValues>(PostGrantBody),
  });
  return (
    <Stack gap="xs">
      <form
        aria-label="Add a grant link"
        onSubmit={form.onSubmit((values) =>
          add.mutate(values, {
            onSuccess: (g) => {
              setLink(g.link);
              form.reset();
              notifyDone('Grant link created');
            },
            onError: (e) => notifyError(e),
          }),
        )}
      >
        <Group align="flex-end" wrap="wrap">
          <Select label="Role" data={GRANT_ROLES.map((r) => ({ value: r, label: r }))} allowDeselect={false} {...form.getInputProps('role')} w={110} />
          <TextInput label="Display name" required {...form.getInputProps('display_name')} w={200} />
          <NumberInput label="Uses" min={1} {...form.getInputProps('max_uses')} w={90} />
          <NumberInput label="Valid (days)" min={1} {...form.getInputProps('expires_in_days')} w={110} />
          <Button type="submit" loading={add.isPending}>
            Add grant link
          </Button>
        </Group>
      </form>
      {link && (
        <Group gap="xs" wrap="nowrap">
          <TextInput readOnly label="New link (shown once)" value={link} style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton value={link}>
            {({ copied, copy }) => (
              <Button mt={24} variant="light" onClick={copy}>
                {copied ? 'Copied' : 'Copy link'}
              </Button>
            )}
          </CopyButton>
        </Group>
      )}
    </Stack>
  );
}

const who = (g: Grant) => (g.token ? 'Grant link' : `${g.service}: ${g.service_id}`);

/** The party's grants: who holds host or admin, who redeemed each link; revoke. */
export function GrantsPanel({ partyId }: { partyId: string }) {
  const grants = useGrants(partyId);
  const revoke = useRevokeGrant(partyId);
  return (
    <Stack gap="sm" component="section" aria-labelledby="grants-title">
      <Title order={2} size="h3" id="grants-title">
        Grants
      </Title>
      <AddGrantLink partyId={partyId} />
      <QueryState query={grants}>
        {(page) =>
          page.items.length === 0 ? (
            <Empty title="No grants yet">Add a grant link to make someone host or admin.</Empty>
          ) : (
            <Table.ScrollContainer minWidth={560}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Role</Table.Th>
                    <Table.Th>Kind</Table.Th>
                    <Table.Th>Uses</Table.Th>
                    <Table.Th>Redeemed by</Table.Th>
                    <Table.Th>Expires</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {page.items.map((g) => (
                    <Table.Tr key={g.token ?? `${g.service}:${g.service_id}`}>
                      <Table.Td>{g.display_name}</Table.Td>
                      <Table.Td>{g.role}</Table.Td>
                      <Table.Td>{who(g)}</Table.Td>
                      <Table.Td>{g.token ? `${g.uses} / ${g.max_uses ?? '∞'}` : '–'}</Table.Td>
                      <Table.Td>
                        <Text size="sm">{g.redeemed_by.length ? g.redeemed_by.map((r) => `${r.display_name} (${new Date(r.redeemed_at).toLocaleString()})`).join(', ') : '–'}</Text>
                      </Table.Td>
                      <Table.Td>{g.expires_at ? new Date(g.expires_at).toLocaleString() : '–'}</Table.Td>
                      <Table.Td>
                        <Tooltip label="Revoke">
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Revoke the grant of ${g.display_name}`}
                            loading={revoke.isPending && revoke.variables === g}
                            onClick={() => revoke.mutate(g, { onSuccess: () => notifyDone('Grant revoked'), onError: (e) => notifyError(e, 'Could not revoke') })}
                          >
                            ✕
                          </ActionIcon>
                        </Tooltip>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </QueryState>
    </Stack>
  );
}
