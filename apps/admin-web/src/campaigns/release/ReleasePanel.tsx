import { useMemo } from 'react';
import { Badge, Button, Fieldset, Group, Paper, Select, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { ReleaseLocalTime, ReleaseTimeZone, type Campaign, type ReleaseSettingsInput, type TerritoryClock, type TerritoryReleaseState } from '@fanfare/protocol';
import { useApi } from '../../api/context.tsx';
import { useNow } from '../../ui/useNow.ts';
import { Empty, Failed, Loading } from '../../ui/States.tsx';
import type { DraftForm } from '../editor/useDraftForm.ts';
import { localTimeIn, territoryReason } from './territoryStatus.ts';

const STATE_COLOURS: Record<TerritoryReleaseState, string> = { pending: 'gray.7', released: 'teal.9', unavailable: 'red.9' };
const STATE_LABELS: Record<TerritoryReleaseState, string> = { pending: 'Pending', released: 'Released', unavailable: 'Unavailable' };
const when = (iso: string) => new Date(iso).toLocaleString();

type LocalClock = Extract<NonNullable<ReleaseSettingsInput['clock']>, { mode: 'local' }>;

/**
 * The exceptions of a local release clock: per participating territory, its own local time and
 * zone (empty: the clock's time, read in the country's main zone). The same zod rules as the
 * server's decide what is refused.
 */
function TerritoryOverrides({ clock, countries, readOnly, zonesKnown, onChange }: { clock: LocalClock; countries: string[]; readOnly: boolean; zonesKnown: Record<string, string | null>; onChange: (next: LocalClock) => void }) {
  const zones = useMemo(() => Intl.supportedValuesOf('timeZone').map((z) => ({ value: z, label: z })), []);
  const territories = (clock.territories ?? {}) as Record<string, TerritoryClock>;
  const set = (country: string, patch: Partial<TerritoryClock>) => {
    const merged: TerritoryClock = { ...territories[country], ...patch };
    const entry = Object.fromEntries(Object.entries(merged).filter(([, v]) => v)) as TerritoryClock;
    const next = { ...territories };
    if (Object.keys(entry).length) next[country] = entry;
    else delete next[country];
    onChange({ ...clock, territories: next });
  };
  if (countries.length === 0) {
    return <Empty title="No participating countries">Add the participating countries on the General tab; each can then have its own local time or zone.</Empty>;
  }
  return (
    <Stack gap="xs" data-testid="territory-overrides">
      {countries.map((country) => {
        const own = territories[country] ?? {};
        const timeError = own.local_time && !ReleaseLocalTime.safeParse(own.local_time).success ? 'Expected a local time as YYYY-MM-DDTHH:mm' : null;
        const zoneError = own.time_zone && !ReleaseTimeZone.safeParse(own.time_zone).success ? 'Unknown time zone' : null;
        return (
          <Fieldset key={country} legend={country} data-territory={country} variant="filled" p="xs">
            <Group align="flex-end" gap="sm" wrap="wrap">
              <TextInput
                type="datetime-local"
                label={`Local release time in ${country}`}
                description={own.local_time ? 'Its own time' : `As above (${clock.local_time.replace('T', ' ')})`}
                disabled={readOnly}
                value={own.local_time ?? ''}
                error={timeError}
                w={{ base: '100%', xs: 230 }}
                onChange={(e) => set(country, { local_time: e.currentTarget.value.slice(0, 16) || undefined })}
              />
              <Select
                label={`Time zone of ${country}`}
                description={own.time_zone ? 'Its own zone' : `Main zone${zonesKnown[country] ? ` (${zonesKnown[country]})` : ''}`}
                placeholder="Main zone"
                searchable
                clearable
                disabled={readOnly}
                data={zones}
                limit={50}
                value={own.time_zone ?? null}
                error={zoneError}
                w={{ base: '100%', xs: 230 }}
                onChange={(v) => set(country, { time_zone: v ?? undefined })}
              />
              <Button variant="default" disabled={readOnly || (!own.local_time && !own.time_zone)} onClick={() => set(country, { local_time: undefined, time_zone: undefined })}>
                Reset {country}
              </Button>
            </Group>
          </Fieldset>
        );
      })}
    </Stack>
  );
}

/**
 * The release clock (one instant, or a local time read in each territory's zone) and, for the
 * published campaign, where the release stands per territory (pending, released, unavailable in
 * the storefront) with its pre-saves and their latest results.
 */
export function ReleasePanel({ form, readOnly, stored }: { form: DraftForm; readOnly: boolean; stored: Campaign }) {
  const api = useApi();
  const data = form.values.data as { release?: ReleaseSettingsInput };
  const release = data.release;
  const report = useQuery({ queryKey: ['campaigns', stored.id, 'presave', stored.updated_at], queryFn: () => api.campaigns.presaveReport(stored.id), refetchInterval: 15_000 });
  const now = useNow();
  // Three choices side by side do not fit a phone: they stack there.
  const isNarrow = useMediaQuery('(max-width: 36em)') ?? false;
  const countries = ((form.values.data as { participating_countries?: string[] }).participating_countries ?? []) as string[];
  const zonesKnown = Object.fromEntries((report.data?.territories ?? []).map((t) => [t.country, t.time_zone]));
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
        orientation={isNarrow ? 'vertical' : 'horizontal'}
        fullWidth={isNarrow}
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
      {clock?.mode === 'local' && (
        <>
          <Title order={4}>Exceptions per territory</Title>
          <TerritoryOverrides clock={clock} countries={countries} readOnly={readOnly} zonesKnown={zonesKnown} onChange={(next) => setRelease({ ...release!, clock: next })} />
        </>
      )}
      <Title order={3}>Where the release stands</Title>
      <Text size="sm" c="dimmed">
        As published. A territory flips once its time has passed and the storefront has the release; where it lacks it, the page stays in pre-release.
      </Text>
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
          <Stack gap="sm" role="list" aria-label="Release per territory">
            {report.data.territories.map((t) => (
              <Paper key={t.country} withBorder p="sm" role="listitem" data-testid={`territory-${t.country}`} data-state={t.state}>
                <Stack gap={4}>
                  <Group justify="space-between" gap="xs">
                    <Title order={4} size="h5">
                      {t.country}
                    </Title>
                    <Badge color={STATE_COLOURS[t.state]} variant="filled">
                      {STATE_LABELS[t.state]}
                    </Badge>
                  </Group>
                  <Text size="sm" data-testid={`release-at-${t.country}`}>
                    {localTimeIn(t.release_at, t.time_zone)}
                    {t.time_zone && (
                      <Text span size="xs" c="dimmed" display="block">
                        {when(t.release_at)} your time
                      </Text>
                    )}
                  </Text>
                  <Text size="sm" data-testid={`reason-${t.country}`}>
                    {territoryReason(t, stored.enabled_services, now, when)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    Pre-saves: {t.counts.pending} waiting, {t.counts.done} done, {t.counts.failed} failed
                  </Text>
                </Stack>
              </Paper>
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}
