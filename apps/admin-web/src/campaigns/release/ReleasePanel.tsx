import { Badge, Group, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Campaign, ReleaseSettingsInput, TerritoryReleaseState } from '@fanfare/protocol';
import { useApi } from '../../api/context.tsx';
import { Empty, Failed, Loading } from '../../ui/States.tsx';
import type { DraftForm } from '../editor/useDraftForm.ts';

const STATE_COLOURS: Record<TerritoryReleaseState, string> = { pending: 'gray', released: 'green', unavailable: 'orange' };
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/**
 * The release clock (one instant, or a local time read in each territory's zone) and, for the
 * published campaign, where the release stands per territory (pending, released, unavailable in
 * the storefront) with its pre-saves and their latest results.
 */
export function ReleasePanel({ form, readOnly, stored }: { form: DraftForm; readOnly: boolean; stored: Campaign }) {
  const api = useApi();
  const data = form.values.data as { release?: ReleaseSettingsInput };
  const release = data.release;
  const report = useQuery({ queryKey: ['campaigns', stored.id, 'presave'], queryFn: () => api.campaigns.presaveReport(stored.id), refetchInterval: 15_000 });
  const setRelease = (next: ReleaseSettingsInput | undefined) => form.setFieldValue('data', { ...form.values.data, release: next } as typeof form.values.data);
  const clock = release?.clock;
  const mode = clock?.mode ?? 'none';
  const setMode = (m: string) => {
    if (m === 'none') return setRelease(undefined);
    const base: ReleaseSettingsInput = release ?? { clock: { mode: 'instant', at: new Date().toISOString() } };
    setRelease({ ...base, clock: m === 'instant' ? { mode: 'instant', at: new Date().toISOString() } : { mode: 'local', local_time: new Date().toISOString().slice(0, 16), territories: {} } });
  };
  return (
    <Stack>
      <Title order={3}>Release clock</Title>
      <SegmentedControl
        aria-label="Release clock"
        disabled={readOnly}
        value={mode}
        onChange={setMode}
        data={[
          { value: 'none', label: 'No release' },
          { value: 'instant', label: 'One instant' },
          { value: 'local', label: 'Local time per territory' },
        ]}
      />
      {clock?.mode === 'instant' && (
        <TextInput
          label="Release instant (UTC, ISO 8601)"
          disabled={readOnly}
          value={clock.at}
          onChange={(e) => setRelease({ ...release!, clock: { mode: 'instant', at: e.currentTarget.value } })}
        />
      )}
      {clock?.mode === 'local' && (
        <TextInput
          type="datetime-local"
          label="Local release time in each participating territory"
          description="Read in each country's main time zone"
          disabled={readOnly}
          value={clock.local_time}
          onChange={(e) => setRelease({ ...release!, clock: { ...clock, local_time: e.currentTarget.value.slice(0, 16) } })}
        />
      )}
      <Title order={3}>Territories and pre-saves</Title>
      {report.isPending ? (
        <Loading label="Loading the release…" />
      ) : report.isError ? (
        <Failed error={report.error} retry={() => void report.refetch()} />
      ) : report.data.territories.length === 0 ? (
        <Empty title="No territory planned yet">Publish a release clock; its participating countries appear here.</Empty>
      ) : (
        <>
          <Text size="sm" data-testid="presave-totals">
            Pre-saves: {report.data.totals.pending} waiting, {report.data.totals.done} done, {report.data.totals.failed} failed
          </Text>
          <Table.ScrollContainer minWidth={560}>
            <Table aria-label="Release per territory">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Territory</Table.Th>
                  <Table.Th>Release</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>Pre-saves (waiting / done / failed)</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {report.data.territories.map((t) => (
                  <Table.Tr key={t.country} data-testid={`territory-${t.country}`}>
                    <Table.Td>
                      {t.country} <Text span size="xs" c="dimmed">{t.time_zone ?? 'UTC instant'}</Text>
                    </Table.Td>
                    <Table.Td>{when(t.release_at)}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        <Badge color={STATE_COLOURS[t.state]} variant="light" autoContrast>
                          {t.state}
                        </Badge>
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      {t.counts.pending} / {t.counts.done} / {t.counts.failed}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Stack>
  );
}
