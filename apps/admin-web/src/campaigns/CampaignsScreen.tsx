import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ActionIcon, Anchor, Badge, Button, Group, Menu, Modal, Pagination, Select, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { CAMPAIGN_LIST_STATES, type Campaign, type CampaignListState, type CampaignsPageQuery } from '@fanfare/protocol';
import { useCan } from '../api/context.tsx';
import { notifyDone, notifyError } from '../ui/notify.ts';
import { Empty, Failed, Loading } from '../ui/States.tsx';
import { useNow } from '../ui/useNow.ts';
import { CreateCampaignModal } from './CreateCampaignModal.tsx';
import { useApps, useCampaignsPage, useCloneCampaign, useDeleteCampaign } from './queries.ts';
import { campaignState, STATE_COLOURS } from './timing.ts';
import { StatusBadge } from './editorial/StatusBadge.tsx';
import { FOCUSABLE_SCROLL } from '../ui/focusableScroll.ts';

const SORTS = [
  { value: 'updated_at:desc', label: 'Last changed' },
  { value: 'created_at:desc', label: 'Newest' },
  { value: 'name:asc', label: 'Name A–Z' },
  { value: 'starts_at:desc', label: 'Start (latest first)' },
  { value: 'ends_at:asc', label: 'End (soonest first)' },
] as const;
const PAGE_SIZE = 25;

/** The campaigns list: search, filters and sort run on the server, one page at a time. */
export default function CampaignsScreen() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [appId, setAppId] = useState<string | null>(null);
  const [state, setState] = useState<CampaignListState | null>(null);
  const [sort, setSort] = useState<string>('updated_at:desc');
  const [page, setPage] = useState(1);
  const [sortField, order] = sort.split(':') as [NonNullable<CampaignsPageQuery['sort']>, 'asc' | 'desc'];
  const query: CampaignsPageQuery = { q: q || undefined, app_id: appId ?? undefined, state: state ?? undefined, sort: sortField, order, page, page_size: PAGE_SIZE };
  const list = useCampaignsPage(query);
  const apps = useApps();
  const [creating, create] = useDisclosure(false);
  const canWrite = useCan('campaigns.write');
  const reset = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Campaigns</Title>
        {canWrite && <Button onClick={create.open}>New campaign</Button>}
      </Group>
      <Group align="flex-end" gap="sm">
        <TextInput label="Search" placeholder="Name or slug" value={search} onChange={(e) => reset(setSearch)(e.currentTarget.value)} w={{ base: '100%', sm: 220 }} />
        <Select
          label="App"
          placeholder="All apps"
          clearable
          clearButtonProps={{ 'aria-label': 'Clear' }}
          data={(apps.data?.items ?? []).map((a) => ({ value: a.id, label: a.title || a.name }))}
          value={appId}
          onChange={reset(setAppId)}
          w={{ base: '100%', sm: 180 }}
        />
        <Select label="State" placeholder="Any state" clearable clearButtonProps={{ 'aria-label': 'Clear' }} data={[...CAMPAIGN_LIST_STATES]} value={state} onChange={(v) => reset(setState)(v as CampaignListState | null)} w={{ base: '100%', sm: 150 }} />
        <Select label="Sort by" data={SORTS.map((s) => ({ ...s }))} value={sort} onChange={(v) => reset(setSort)(v ?? 'updated_at:desc')} allowDeselect={false} w={{ base: '100%', sm: 200 }} />
      </Group>
      {list.isPending ? (
        <Loading label="Loading campaigns…" />
      ) : list.isError ? (
        <Failed error={list.error} retry={() => void list.refetch()} />
      ) : list.data.total === 0 ? (
        <Empty title={q || appId || state ? 'No campaign matches' : 'No campaigns yet'} action={canWrite && !q && !appId && !state ? <Button onClick={create.open}>Create the first campaign</Button> : undefined}>
          {q || appId || state ? 'Change the search or the filters.' : 'A campaign is a page for fans: a newsletter signup, a pre-save, a token-gated drop.'}
        </Empty>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="campaigns-total">
            {list.data.total} campaigns · page {list.data.page} of {Math.max(1, Math.ceil(list.data.total / PAGE_SIZE))}
          </Text>
          <Table.ScrollContainer minWidth={640} {...FOCUSABLE_SCROLL}>
            <Table striped highlightOnHover aria-label="Campaigns" style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>App</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>Starts</Table.Th>
                  <Table.Th>Ends</Table.Th>
                  <Table.Th>Locked by</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.items.map((c) => (
                  <CampaignRow key={c.id} campaign={c} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pagination total={Math.max(1, Math.ceil(list.data.total / PAGE_SIZE))} value={page} onChange={setPage} aria-label="Pages" getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
        </>
      )}
      <CreateCampaignModal opened={creating} onClose={create.close} />
    </Stack>
  );
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

function CampaignRow({ campaign: c }: { campaign: Campaign }) {
  const navigate = useNavigate();
  const canWrite = useCan('campaigns.write');
  const canDelete = useCan('campaigns.delete');
  const canSeeSubscribers = useCan('newsletter.export');
  const canGate = useCan('tokenGate.manage');
  const clone = useCloneCampaign();
  const remove = useDeleteCampaign();
  const [confirming, confirm] = useDisclosure(false);
  const now = useNow();
  const state = campaignState(c, now);
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={`/campaigns/${c.id}`} fw={600}>
          {c.name}
        </Anchor>
        <Text size="xs" c="dimmed">
          /{c.slug}
        </Text>
      </Table.Td>
      <Table.Td>{c.app}</Table.Td>
      <Table.Td>
        <Group gap={4}>
          <StatusBadge status={c.status} />
          <Badge color={STATE_COLOURS[state]} variant="filled">
            {state}
          </Badge>
          {c.test && (
            <Badge color="grape.9" variant="filled">
              test
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>{when(c.starts_at)}</Table.Td>
      <Table.Td>{when(c.ends_at)}</Table.Td>
      <Table.Td>{c.lock ? c.lock.user_email : '—'}</Table.Td>
      <Table.Td>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" aria-label={`Actions for ${c.name}`}>
              ⋯
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => void navigate(`/campaigns/${c.id}`)}>Edit</Menu.Item>
            <Menu.Item component="a" href={c.url} target="_blank" rel="noopener">
              Open page
            </Menu.Item>
            {canWrite && (
              <Menu.Item
                onClick={() =>
                  clone.mutate(
                    { id: c.id, body: {} },
                    { onSuccess: (copy) => notifyDone(`Cloned as ${copy.name}`), onError: (e) => notifyError(e, 'Could not clone') },
                  )
                }
              >
                Clone
              </Menu.Item>
            )}
            {canSeeSubscribers && <Menu.Item onClick={() => void navigate(`/campaigns/${c.id}/subscribers`)}>Subscribers & consents</Menu.Item>}
            {canGate && <Menu.Item onClick={() => void navigate(`/campaigns/${c.id}/token-gate`)}>Token gate</Menu.Item>}
            {canDelete && (
              <Menu.Item color="red" onClick={confirm.open}>
                Delete…
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
        <Modal opened={confirming} onClose={confirm.close} title={`Delete ${c.name}?`}>
          <Stack>
            <Text size="sm">The page at {c.url} stops working. This cannot be undone.</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={confirm.close}>
                Cancel
              </Button>
              <Button
                color="red"
                loading={remove.isPending}
                onClick={() =>
                  remove.mutate(c.id, {
                    onSuccess: () => {
                      confirm.close();
                      notifyDone(`Deleted ${c.name}`);
                    },
                    onError: (e) => notifyError(e, 'Could not delete'),
                  })
                }
              >
                Delete campaign
              </Button>
            </Group>
          </Stack>
        </Modal>
      </Table.Td>
    </Table.Tr>
  );
}
