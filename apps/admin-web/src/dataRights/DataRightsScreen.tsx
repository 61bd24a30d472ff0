import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, List, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataSubjectExport, ErasureReport } from '@fanfare/protocol';
import { useApi } from '../api/context.tsx';
import { FOCUSABLE_SCROLL } from '../ui/focusableScroll.ts';
import { Empty, Failed, Loading } from '../ui/States.tsx';

/** Downloads `data` as a JSON file. */
function downloadJson(data: unknown, name: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const countOf = (found: DataSubjectExport) =>
  found.fans.length + found.visitor.newsletter_subscriptions.length + found.visitor.newsletter_consents.length + found.visitor.campaign_accounts.length + found.visitor.presaves.length;

/**
 * Fans' data rights for operators (GDPR art. 15, 17, 20; permission `dataRights.manage`): find a
 * fan and campaign visitor by e-mail, download everything stored about them, or erase them. The
 * server writes every look-up and erasure to the data-rights audit, listed below.
 */
export default function DataRightsScreen() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [erased, setErased] = useState<ErasureReport | null>(null);
  const audit = useQuery({ queryKey: ['data-rights-audit'], queryFn: () => api.dataRights.audit() });
  const refreshAudit = () => void queryClient.invalidateQueries({ queryKey: ['data-rights-audit'] });
  const lookup = useMutation({ mutationFn: (address: string) => api.dataRights.export(address), onSettled: refreshAudit });
  const erase = useMutation({
    mutationFn: (address: string) => api.dataRights.erase(address),
    onSuccess: (report) => {
      setErased(report);
      setConfirming(false);
      lookup.reset();
    },
    onSettled: refreshAudit,
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setErased(null);
    erase.reset();
    lookup.mutate(email.trim());
  };
  const found = lookup.data;

  return (
    <Stack>
      <Title order={2}>Data rights</Title>
      <Text size="sm" c="dimmed">
        A fan or campaign visitor asks what is stored about them, or asks to be erased. Find them by e-mail, download their data, or erase it. Every look-up and erasure is written to the
        audit below.
      </Text>
      <form onSubmit={submit} aria-label="Find a fan by e-mail">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput label="E-mail address" type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} w={{ base: '100%', sm: 320 }} autoComplete="off" />
          <Button type="submit" loading={lookup.isPending}>
            Find
          </Button>
        </Group>
      </form>

      {lookup.isError && <Failed error={lookup.error} retry={() => lookup.mutate(email.trim())} />}
      {erased && (
        <Alert color="teal" title="Erased" role="status" data-testid="erasure-report" styles={{ title: { color: 'var(--mantine-color-black)' } }}>
          <List size="sm">
            <List.Item>Fans erased: {erased.fans_erased}</List.Item>
            <List.Item>Chat messages removed: {erased.chat_messages_removed}</List.Item>
            <List.Item>Uploads deleted: {erased.uploads_deleted}</List.Item>
            <List.Item>Party signups removed: {erased.party_signups_removed}</List.Item>
            <List.Item>Consents withdrawn (minimal proof kept): {erased.consents_withdrawn}</List.Item>
            <List.Item>Newsletter subscriptions removed: {erased.newsletter_subscriptions_removed}</List.Item>
            <List.Item>Campaign accounts removed: {erased.campaign_accounts_removed}</List.Item>
            <List.Item>Pre-saves removed: {erased.presaves_removed}</List.Item>
          </List>
        </Alert>
      )}
      {found &&
        (countOf(found) === 0 ? (
          <Empty title="Nothing stored for this address">No fan, newsletter signup, campaign account or pre-save uses {found.email}.</Empty>
        ) : (
          <Stack gap="xs" data-testid="data-subject">
            <Title order={3}>Found for {found.email}</Title>
            <List size="sm">
              {found.fans.map((fan) => (
                <List.Item key={fan.profile.id}>
                  Fan {fan.profile.display_name} ({fan.profile.service}): {fan.party_signups.length} party signups, {fan.chat_messages.length} chat messages, {fan.uploads.length} uploads
                </List.Item>
              ))}
              <List.Item>
                Campaign pages: {found.visitor.newsletter_subscriptions.length} newsletter subscriptions, {found.visitor.newsletter_consents.length} consents, {found.visitor.campaign_accounts.length}{' '}
                campaign accounts, {found.visitor.presaves.length} pre-saves
              </List.Item>
            </List>
            <Group gap="sm">
              <Button variant="default" onClick={() => downloadJson(found, 'data-subject-export.json')}>
                Download export (JSON)
              </Button>
              <Button color="red" variant="light" onClick={() => setConfirming(true)}>
                Erase…
              </Button>
            </Group>
          </Stack>
        ))}

      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Erase this person’s data?">
        <Stack gap="sm">
          <Text size="sm">
            Every fan with {found?.email} loses their account, party signups, chat messages (removed from open party pages at once), votes, answers and uploads; campaign accounts, their
            pre-saves and unconfirmed newsletter signups go; confirmed consents are withdrawn and kept only as the minimal proof. This cannot be undone.
          </Text>
          {erase.isError && <Failed error={erase.error} />}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button color="red" loading={erase.isPending} onClick={() => found && erase.mutate(found.email)}>
              Erase everything
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Title order={3}>Recent requests</Title>
      {audit.isPending ? (
        <Loading label="Loading the data-rights audit…" />
      ) : audit.isError ? (
        <Failed error={audit.error} retry={() => void audit.refetch()} />
      ) : audit.data.items.length === 0 ? (
        <Empty title="No request yet">Every export and erasure, by a fan or here, appears in this list.</Empty>
      ) : (
        <Table.ScrollContainer minWidth={560} {...FOCUSABLE_SCROLL}>
          <Table striped aria-label="Data-rights audit" data-testid="data-rights-audit">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>By</Table.Th>
                <Table.Th>Summary</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {audit.data.items.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>{new Date(e.created_at).toLocaleString()}</Table.Td>
                  <Table.Td>{e.action}</Table.Td>
                  <Table.Td>{e.actor_kind === 'fan' ? 'the fan' : 'back office'}</Table.Td>
                  <Table.Td>{e.summary}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
