import { useState } from 'react';
import { Badge, Button, Group, Select, Stack, Table, Tabs, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { NEWSLETTER_SUBSCRIBER_STATES, type AllNewsletterLedgerQuery, type Campaign } from '@fanfare/protocol';
import { useApi } from '../api/context.tsx';
import { campaignKeys } from '../campaigns/queries.ts';
import { notifyError } from '../ui/notify.ts';
import { Pager } from '../ui/Pager.tsx';
import { Empty, Failed, Loading } from '../ui/States.tsx';
import { FOCUSABLE_SCROLL } from '../ui/focusableScroll.ts';

const PAGE_SIZE = 50;
/** Campaigns offered by the section's campaign filter (searched on the server past that). */
const CAMPAIGN_CHOICES = 100;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

type Kind = 'subscribers' | 'consents';

/** The campaign filter's initial value: `?campaign=` of the hash route, so a link can open the section narrowed. */
function campaignFromUrl(): string | null {
  const query = window.location.hash.split('?')[1] ?? '';
  return new URLSearchParams(query).get('campaign');
}

/**
 * Newsletter subscribers (pending, confirmed) and the consent ledger: what each fan agreed to, in
 * which words, when, from which page and address. Paged on the server, searched by address; the
 * CSV exports stream every row that matches the filters. With `campaign` it shows that campaign's
 * (its screen and its editor tab); without, every campaign's, with a campaign filter (the section).
 */
export function LedgerView({ campaign }: { campaign: Campaign | null }) {
  const api = useApi();
  const [tab, setTab] = useState<Kind>('subscribers');
  const [campaignId, setCampaignId] = useState<string | null>(campaign ? null : campaignFromUrl);
  const [campaignSearch, setCampaignSearch] = useState('');
  const [newsletter, setNewsletter] = useState<string | null>(null);
  const [state, setState] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [campaignQ] = useDebouncedValue(campaignSearch.trim(), 250);
  const [page, setPage] = useState(1);

  const scoped = campaign !== null;
  const choices = useQuery({
    queryKey: campaignKeys.page({ q: campaignQ || undefined, sort: 'name', order: 'asc', page_size: CAMPAIGN_CHOICES }),
    queryFn: () => api.campaigns.page({ q: campaignQ || undefined, sort: 'name', order: 'asc', page_size: CAMPAIGN_CHOICES }),
    enabled: !scoped,
    placeholderData: keepPreviousData,
  });
  const chosen = useQuery({ queryKey: campaignKeys.one(campaignId ?? ''), queryFn: () => api.campaigns.get(campaignId!), enabled: !scoped && campaignId !== null });
  const current = campaign ?? (campaignId ? (chosen.data ?? null) : null);

  const query: AllNewsletterLedgerQuery = {
    newsletter_id: newsletter ?? undefined,
    state: (state as 'pending' | 'confirmed' | null) ?? undefined,
    q: q || undefined,
    page,
    page_size: PAGE_SIZE,
  };
  const key = [campaign?.id ?? 'all', campaignId, query];
  const subscribers = useQuery({
    queryKey: ['subscribers', ...key],
    queryFn: () => (campaign ? api.newsletter.subscribers(campaign.id, query) : api.newsletter.all.subscribers({ ...query, campaign_id: campaignId ?? undefined })),
    enabled: tab === 'subscribers',
    placeholderData: keepPreviousData,
  });
  const consents = useQuery({
    queryKey: ['consents', ...key],
    queryFn: () => (campaign ? api.newsletter.consents(campaign.id, query) : api.newsletter.all.consents({ ...query, campaign_id: campaignId ?? undefined })),
    enabled: tab === 'consents',
    placeholderData: keepPreviousData,
  });
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  // The export is a download with the bearer token, so it goes through fetch and a blob link.
  const [exporting, setExporting] = useState(false);
  const download = async () => {
    setExporting(true);
    try {
      const filters = { newsletter_id: query.newsletter_id, state: query.state, q: query.q };
      const blob = campaign ? await api.newsletter.csv(campaign.id, tab, filters) : await api.newsletter.all.csv(tab, { ...filters, campaign_id: campaignId ?? undefined });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `${tab}-${current?.slug ?? 'all-campaigns'}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      notifyError(e, 'Export failed');
    } finally {
      setExporting(false);
    }
  };

  const newsletters = current ? [...current.newsletters, ...(current.newsletter ? [current.newsletter] : [])] : [];
  const campaignOptions = [
    ...(current && !scoped ? [{ value: current.id, label: current.name }] : []),
    ...(choices.data?.items ?? []).filter((c) => c.id !== current?.id).map((c) => ({ value: c.id, label: c.name })),
  ];
  const nameOf = (id: string) => (id === current?.id ? current.name : (choices.data?.items.find((c) => c.id === id)?.name ?? id));
  const active = tab === 'subscribers' ? subscribers : consents;
  const filtered = Boolean(q || state || newsletter || campaignId);

  return (
    <Stack>
      <Group align="flex-end" gap="sm" wrap="wrap">
        {!scoped && (
          <Select
            label="Campaign"
            placeholder="All campaigns"
            searchable
            clearable
            clearButtonProps={{ 'aria-label': 'Clear the campaign' }}
            data={campaignOptions}
            value={campaignId}
            searchValue={campaignSearch}
            onSearchChange={setCampaignSearch}
            onChange={(v) => {
              reset(setCampaignId)(v);
              setNewsletter(null);
            }}
            nothingFoundMessage="No campaign named like this"
            w={{ base: '100%', sm: 240 }}
          />
        )}
        {newsletters.length > 0 && (
          <Select
            label="Newsletter"
            placeholder="All newsletters"
            clearable
            clearButtonProps={{ 'aria-label': 'Clear the newsletter' }}
            data={newsletters.map((n) => n.id)}
            value={newsletter}
            onChange={reset(setNewsletter)}
            w={{ base: '100%', sm: 200 }}
          />
        )}
        <Select
          label="State"
          placeholder="Any state"
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the state' }}
          data={[...NEWSLETTER_SUBSCRIBER_STATES]}
          value={state}
          onChange={reset(setState)}
          w={{ base: '100%', sm: 160 }}
        />
        <TextInput
          label="E-mail contains"
          type="search"
          value={search}
          onChange={(e) => reset(setSearch)(e.currentTarget.value)}
          // Inside the campaign editor's form, Enter searches; it must not submit the campaign.
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.preventDefault();
          }}
          maxLength={254}
          w={{ base: '100%', sm: 220 }}
        />
        <Button variant="default" onClick={() => void download()} loading={exporting}>
          Export CSV
        </Button>
      </Group>
      <Tabs value={tab} onChange={(v) => reset(setTab)((v as Kind | null) ?? 'subscribers')}>
        <Tabs.List>
          <Tabs.Tab value="subscribers">Subscribers</Tabs.Tab>
          <Tabs.Tab value="consents">Consent ledger</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {active.isPending ? (
        <Loading label={tab === 'subscribers' ? 'Loading subscribers…' : 'Loading consents…'} />
      ) : active.isError ? (
        <Failed error={active.error} retry={() => void active.refetch()} />
      ) : active.data.total === 0 ? (
        <Empty title={filtered ? 'Nobody matches' : 'No signups yet'}>
          {filtered ? 'Change the filters.' : 'Signups from the campaign pages appear here as soon as a fan sends the form.'}
        </Empty>
      ) : tab === 'subscribers' && subscribers.data ? (
        <>
          <Table.ScrollContainer minWidth={640} {...FOCUSABLE_SCROLL}>
            <Table striped aria-label="Subscribers">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>E-mail</Table.Th>
                  {!scoped && <Table.Th>Campaign</Table.Th>}
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
                    {!scoped && <Table.Td>{nameOf(s.campaign_id)}</Table.Td>}
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
                  {!scoped && <Table.Th>Campaign</Table.Th>}
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
                    {!scoped && <Table.Td>{nameOf(c.campaign_id)}</Table.Td>}
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
