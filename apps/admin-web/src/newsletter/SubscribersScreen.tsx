import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Anchor, Badge, Button, Group, Select, Stack, Table, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { NEWSLETTER_SUBSCRIBER_STATES, type NewsletterLedgerQuery } from '@fanfare/protocol';
import { useApi } from '../api/context.tsx';
import { useCampaign } from '../campaigns/queries.ts';
import { notifyError } from '../ui/notify.ts';
import { Pager } from '../ui/Pager.tsx';
import { Empty, Failed, Loading } from '../ui/States.tsx';
import { FOCUSABLE_SCROLL } from '../ui/focusableScroll.ts';

const PAGE_SIZE = 50;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/**
 * A campaign's newsletter subscribers (pending, confirmed) and its consent ledger: what each fan
 * agreed to, in which words, when, from which page and address. Paged on the server; the CSV
 * exports stream every row that matches the filters.
 */
export default function SubscribersScreen() {
  const { id = '' } = useParams();
  const api = useApi();
  const campaign = useCampaign(id);
  const [tab, setTab] = useState<'subscribers' | 'consents'>('subscribers');
  const [newsletter, setNewsletter] = useState<string | null>(null);
  const [state, setState] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [page, setPage] = useState(1);
  const query: NewsletterLedgerQuery = { newsletter_id: newsletter ?? undefined, state: (state as 'pending' | 'confirmed' | null) ?? undefined, q: q || undefined, page, page_size: PAGE_SIZE };
  const subscribers = useQuery({ queryKey: ['subscribers', id, query], queryFn: () => api.newsletter.subscribers(id, query), enabled: tab === 'subscribers', placeholderData: keepPreviousData });
  const consents = useQuery({ queryKey: ['consents', id, query], queryFn: () => api.newsletter.consents(id, query), enabled: tab === 'consents', placeholderData: keepPreviousData });
  const reset = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };

  // The export is a download with the bearer token, so it goes through fetch and a blob link.
  const [exporting, setExporting] = useState(false);
  const download = async () => {
    setExporting(true);
    try {
      const url = URL.createObjectURL(await api.newsletter.csv(id, tab, { newsletter_id: query.newsletter_id, state: query.state, q: query.q }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `${tab}-${campaign.data?.slug ?? id}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      notifyError(e, 'Export failed');
    } finally {
      setExporting(false);
    }
  };

  const newsletters = [...(campaign.data?.newsletters ?? []), ...(campaign.data?.newsletter ? [campaign.data.newsletter] : [])];
  const active = tab === 'subscribers' ? subscribers : consents;

  return (
    <Stack>
      <Anchor component={Link} to="/campaigns" size="sm">
        ← Campaigns
      </Anchor>
      <Title order={2}>Subscribers and consents{campaign.data ? `: ${campaign.data.name}` : ''}</Title>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select label="Newsletter" placeholder="All newsletters" clearable clearButtonProps={{ 'aria-label': 'Clear' }} data={newsletters.map((n) => n.id)} value={newsletter} onChange={reset(setNewsletter)} w={{ base: '100%', sm: 200 }} />
        <Select label="State" placeholder="Any state" clearable clearButtonProps={{ 'aria-label': 'Clear' }} data={[...NEWSLETTER_SUBSCRIBER_STATES]} value={state} onChange={reset(setState)} w={{ base: '100%', sm: 160 }} />
        <TextInput label="E-mail contains" value={search} onChange={(e) => reset(setSearch)(e.currentTarget.value)} w={{ base: '100%', sm: 220 }} />
        <Button variant="default" onClick={() => void download()} loading={exporting}>
          Export CSV
        </Button>
      </Group>
      <Tabs value={tab} onChange={(v) => reset(setTab)((v as 'subscribers' | 'consents') ?? 'subscribers')}>
        <Tabs.List>
          <Tabs.Tab value="subscribers">Subscribers</Tabs.Tab>
          <Tabs.Tab value="consents">Consent ledger</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {active.isPending ? (
        <Loading />
      ) : active.isError ? (
        <Failed error={active.error} retry={() => void active.refetch()} />
      ) : active.data.total === 0 ? (
        <Empty title={q || state || newsletter ? 'Nobody matches' : 'No signups yet'}>
          {q || state || newsletter ? 'Change the filters.' : 'Signups from the campaign page appear here as soon as a fan sends the form.'}
        </Empty>
      ) : tab === 'subscribers' && subscribers.data ? (
        <>
          <Table.ScrollContainer minWidth={640} {...FOCUSABLE_SCROLL}>
            <Table striped aria-label="Subscribers">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>E-mail</Table.Th>
                  <Table.Th>Newsletter</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>Locale</Table.Th>
                  <Table.Th>Signed up</Table.Th>
                  <Table.Th>Confirmed</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {subscribers.data.items.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td>{s.email}</Table.Td>
                    <Table.Td>{s.newsletter_id}</Table.Td>
                    <Table.Td>
                      <Badge color={s.state === 'confirmed' ? 'teal.9' : 'violet.9'} variant="filled">
                        {s.state}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{s.locale}</Table.Td>
                    <Table.Td>{when(s.created_at)}</Table.Td>
                    <Table.Td>{when(s.confirmed_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager total={subscribers.data.total} page={page} pageSize={PAGE_SIZE} onChange={setPage} noun="subscribers" />
        </>
      ) : consents.data ? (
        <>
          <Table.ScrollContainer minWidth={900} {...FOCUSABLE_SCROLL}>
            <Table striped aria-label="Consent ledger">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>E-mail</Table.Th>
                  <Table.Th>Newsletter</Table.Th>
                  <Table.Th>Consent text</Table.Th>
                  <Table.Th>Locale</Table.Th>
                  <Table.Th>Given</Table.Th>
                  <Table.Th>Page</Table.Th>
                  <Table.Th>Address</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {consents.data.items.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>{c.email}</Table.Td>
                    <Table.Td>
                      {c.newsletter_id} ({c.signup_mode}
                      {c.accepted ? ', accepted' : ''})
                    </Table.Td>
                    <Table.Td maw={280}>
                      <Text size="sm">{c.consent_text ?? `Changed since (version ${c.consent_text_version})`}</Text>
                    </Table.Td>
                    <Table.Td>{c.locale}</Table.Td>
                    <Table.Td>
                      {when(c.created_at)}
                      {c.confirmed_at ? ` · confirmed ${when(c.confirmed_at)}` : ' · not confirmed'}
                    </Table.Td>
                    <Table.Td maw={200}>
                      <Text size="xs" truncate>
                        {c.source_page}
                      </Text>
                    </Table.Td>
                    <Table.Td>{c.ip}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager total={consents.data.total} page={page} pageSize={PAGE_SIZE} onChange={setPage} noun="consents" />
        </>
      ) : null}
    </Stack>
  );
}
