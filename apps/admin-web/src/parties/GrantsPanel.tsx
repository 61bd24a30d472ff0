import { useState } from 'react';
import { ActionIcon, Avatar, Badge, Button, CopyButton, Group, NumberInput, Paper, SegmentedControl, Select, Stack, Table, Text, TextInput, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { GRANT_LINK_DEFAULT_MAX_USES, GRANT_LINK_DEFAULT_TTL_DAYS, GRANT_ROLES, LOGIN_SERVICES, PostGrantBody, type Grant, type GrantRole, type LoginService } from '@fanfare/protocol';
import { zodResolver } from '../forms/zodResolver.ts';
import { notifyDone, notifyError } from '../ui/notify.ts';
import { Empty, QueryState } from '../ui/States.tsx';
import { useNow } from '../ui/useNow.ts';
import { ImageField } from './editor/ImageField.tsx';
import { useAddGrant, useGrants, useRevokeGrant } from './queries.ts';

type Kind = 'link' | 'account';

interface GrantValues {
  role: GrantRole;
  display_name: string;
  /** Empty: no picture. */
  profile_picture: string;
  service: LoginService;
  service_id: string;
  max_uses: number;
  expires_in_days: number;
}

const SERVICE_LABEL: Record<LoginService, string> = { spotify: 'Spotify', apple: 'Apple Music' };

/** The POST body of a grant of `kind`: a link carries its limits, an account grant its account. */
export function toPostGrantBody(kind: Kind, v: GrantValues): PostGrantBody {
  const base = { role: v.role, display_name: v.display_name, ...(v.profile_picture.trim() ? { profile_picture: v.profile_picture.trim() } : {}) };
  return (kind === 'link' ? { ...base, max_uses: v.max_uses, expires_in_days: v.expires_in_days } : { ...base, service: v.service, service_id: v.service_id.trim() }) as PostGrantBody;
}

/** A new grant: a link (shown in full once, the server keeps only its hash) or a streaming account. */
function AddGrant({ partyId, onLink }: { partyId: string; onLink: (grantId: string, link: string) => void }) {
  const add = useAddGrant(partyId);
  const [kind, setKind] = useState<Kind>('link');
  const [link, setLink] = useState<string | null>(null);
  const form = useForm<GrantValues>({
    initialValues: { role: 'host', display_name: '', profile_picture: '', service: 'spotify', service_id: '', max_uses: GRANT_LINK_DEFAULT_MAX_USES, expires_in_days: GRANT_LINK_DEFAULT_TTL_DAYS },
  });
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <SegmentedControl
          aria-label="Kind of grant"
          value={kind}
          onChange={(v) => {
            setKind(v as Kind);
            form.clearErrors();
          }}
          data={[
            { value: 'link', label: 'Grant link' },
            { value: 'account', label: 'Streaming account' },
          ]}
          w="fit-content"
        />
        <form
          aria-label={kind === 'link' ? 'Add a grant link' : 'Add a grant to a streaming account'}
          onSubmit={(e) => {
            e.preventDefault();
            // Checked with the protocol schema for the kind chosen, as the server would.
            const values = form.getValues();
            const errors = zodResolver<GrantValues>(PostGrantBody, (v) => toPostGrantBody(kind, v))(values);
            form.setErrors(errors);
            if (Object.keys(errors).length > 0) return;
            add.mutate(toPostGrantBody(kind, values), {
              onSuccess: (g) => {
                if (g.link) {
                  setLink(g.link);
                  onLink(g.id, g.link);
                }
                form.reset();
                notifyDone(kind === 'link' ? 'Grant link created' : 'Grant added');
              },
              onError: (err) => notifyError(err),
            });
          }}
        >
          <Group align="flex-start" wrap="wrap">
            <Select label="Role" data={GRANT_ROLES.map((r) => ({ value: r, label: r }))} allowDeselect={false} {...form.getInputProps('role')} w={110} />
            <TextInput label="Display name" required {...form.getInputProps('display_name')} w={200} />
            <ImageField label="Picture URL" name="picture" placeholder="Optional" {...form.getInputProps('profile_picture')} w={240} />
            {kind === 'link' ? (
              <>
                <NumberInput label="Uses" min={1} allowDecimal={false} {...form.getInputProps('max_uses')} w={90} />
                <NumberInput label="Valid (days)" min={1} allowDecimal={false} {...form.getInputProps('expires_in_days')} w={110} />
              </>
            ) : (
              <>
                <Select label="Service" data={LOGIN_SERVICES.map((s) => ({ value: s, label: SERVICE_LABEL[s] }))} allowDeselect={false} {...form.getInputProps('service')} w={140} />
                <TextInput label="Account id" description="The user id on the service" required {...form.getInputProps('service_id')} w={200} />
              </>
            )}
          </Group>
          <Button type="submit" mt="sm" loading={add.isPending}>
            {kind === 'link' ? 'Add grant link' : 'Add grant'}
          </Button>
        </form>
        {link && (
          <Group gap="xs" wrap="nowrap" align="flex-end">
            <TextInput readOnly label="New link (shown once: copy it now)" value={link} style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton value={link}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

const isExpired = (g: Grant, now: number) => g.expires_at !== null && Date.parse(g.expires_at) <= now;
const isUsedUp = (g: Grant) => g.max_uses !== null && g.uses >= g.max_uses;

/** The party's grants: who holds host or admin, the limits of each link and who redeemed it; revoke. */
export function GrantsPanel({ partyId }: { partyId: string }) {
  const grants = useGrants(partyId);
  const revoke = useRevokeGrant(partyId);
  // Links made in this tab, by grant id: the server answers a link only when it is made.
  const [links, setLinks] = useState<Record<string, string>>({});
  const now = useNow();
  return (
    <Stack gap="sm" component="section" aria-labelledby="grants-title">
      <Title order={2} size="h4" id="grants-title">
        Grants
      </Title>
      <AddGrant partyId={partyId} onLink={(id, link) => setLinks((l) => ({ ...l, [id]: link }))} />
      <QueryState query={grants}>
        {(page) =>
          page.items.length === 0 ? (
            <Empty title="No grants yet">Add a grant link or a streaming account to make someone host or admin.</Empty>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table aria-label="Grants">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Role</Table.Th>
                    <Table.Th>Kind</Table.Th>
                    <Table.Th>Uses</Table.Th>
                    <Table.Th>Expires</Table.Th>
                    <Table.Th>Redeemed by</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {page.items.map((g) => {
                    const isLink = g.service === null;
                    const link = links[g.id];
                    return (
                      <Table.Tr key={g.id}>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            <Avatar src={g.profile_picture} alt="" size="sm" name={g.display_name} color="initials" />
                            <Text size="sm">{g.display_name}</Text>
                          </Group>
                        </Table.Td>
                        <Table.Td>
                          <Badge variant="light" color={g.role === 'admin' ? 'grape' : 'indigo'}>
                            {g.role}
                          </Badge>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{isLink ? 'Grant link' : `${SERVICE_LABEL[g.service!]}: ${g.service_id}`}</Text>
                        </Table.Td>
                        <Table.Td>
                          {isLink ? (
                            <Group gap={4} wrap="nowrap">
                              <Text size="sm">
                                {g.uses} / {g.max_uses ?? '∞'}
                              </Text>
                              {isUsedUp(g) && (
                                <Badge size="xs" color="gray">
                                  used up
                                </Badge>
                              )}
                            </Group>
                          ) : (
                            '–'
                          )}
                        </Table.Td>
                        <Table.Td>
                          {g.expires_at ? (
                            <Group gap={4} wrap="nowrap">
                              <Text size="sm">{new Date(g.expires_at).toLocaleString()}</Text>
                              {isExpired(g, now) && (
                                <Badge size="xs" color="red">
                                  expired
                                </Badge>
                              )}
                            </Group>
                          ) : (
                            '–'
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{g.redeemed_by.length ? g.redeemed_by.map((r) => `${r.display_name} (${new Date(r.redeemed_at).toLocaleString()})`).join(', ') : '–'}</Text>
                        </Table.Td>
                        <Table.Td>
                          <Group gap={4} wrap="nowrap" justify="flex-end">
                            {isLink &&
                              (link ? (
                                <CopyButton value={link}>
                                  {({ copied, copy }) => (
                                    <Button size="xs" variant="light" onClick={copy} aria-label={`Copy the link of ${g.display_name}`}>
                                      {copied ? 'Copied' : 'Copy'}
                                    </Button>
                                  )}
                                </CopyButton>
                              ) : (
                                <Tooltip label="The full link is shown only when it is made (the server keeps its hash)">
                                  <Text size="xs" c="dimmed" tabIndex={0}>
                                    link hidden
                                  </Text>
                                </Tooltip>
                              ))}
                            <Tooltip label="Revoke">
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                aria-label={`Revoke the grant of ${g.display_name}`}
                                loading={revoke.isPending && revoke.variables?.id === g.id}
                                onClick={() => revoke.mutate(g, { onSuccess: () => notifyDone('Grant revoked'), onError: (e) => notifyError(e, 'Could not revoke') })}
                              >
                                ✕
                              </ActionIcon>
                            </Tooltip>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </QueryState>
    </Stack>
  );
}
