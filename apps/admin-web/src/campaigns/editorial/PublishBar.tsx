import { useMemo, useState } from 'react';
import { Button, Group, MultiSelect, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import type { Campaign } from '@fanfare/protocol';
import { useCan } from '../../api/context.tsx';
import { notifyDone, notifyError } from '../../ui/notify.ts';
import { usePublish, useSchedule, useUnpublish } from './queries.ts';

type Step = null | 'publish' | 'unpublish' | 'schedule';

/** Every IANA zone the browser knows, the editor's own first. */
function timeZones(): string[] {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [own, ...all.filter((z) => z !== own), ...(all.includes('UTC') || own === 'UTC' ? [] : ['UTC'])];
}

/** An instant as the wall-clock time of `timeZone`, for a `datetime-local` field (`YYYY-MM-DDTHH:mm:ss`). */
function wallTime(iso: string | null, timeZone: string): string {
  if (!iso) return '';
  try {
    return new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .format(new Date(iso))
      .replace(' ', 'T');
  } catch {
    return '';
  }
}

const shown = (iso: string, timeZone: string | null) =>
  `${new Date(iso).toLocaleString('en-GB', { timeZone: timeZone ?? undefined, dateStyle: 'medium', timeStyle: 'medium' })}${timeZone ? ` (${timeZone})` : ''}`;

/**
 * Publish, schedule and unpublish a campaign, each confirmed inline (no native dialog): the
 * question and its buttons open under the actions, and Cancel leaves everything as it was.
 */
export function PublishBar({ campaign, dirty, onChanged }: { campaign: Campaign; dirty: boolean; onChanged: (c: Campaign) => void }) {
  const canPublish = useCan('campaigns.publish');
  const [step, setStep] = useState<Step>(null);
  const publish = usePublish(campaign.id);
  const unpublish = useUnpublish(campaign.id);
  const schedule = useSchedule(campaign.id);
  const zones = useMemo(() => timeZones(), []);
  const [zone, setZone] = useState(campaign.schedule_time_zone ?? zones[0] ?? 'UTC');
  const [publishAt, setPublishAt] = useState(wallTime(campaign.scheduled_publish_at, zone));
  const [unpublishAt, setUnpublishAt] = useState(wallTime(campaign.scheduled_unpublish_at, zone));
  const [locales, setLocales] = useState<string[]>([]);
  const [scheduleLocales, setScheduleLocales] = useState<string[]>(campaign.scheduled_publish_locales ?? []);
  const localeOptions = campaign.i18n?.locales?.map((l) => l.code) ?? ['de', 'en'];
  if (!canPublish) return null;

  const done = (message: string) => (c: Campaign) => {
    onChanged(c);
    setStep(null);
    notifyDone(message);
  };
  const isPublic = campaign.status === 'published' || campaign.status === 'changed';
  const busy = publish.isPending || unpublish.isPending || schedule.isPending;

  return (
    <Stack gap="xs" data-testid="publish-bar">
      <Group gap="xs" wrap="wrap">
        <Button size="sm" color="teal.9" disabled={dirty || campaign.status === 'published'} onClick={() => setStep('publish')} aria-expanded={step === 'publish'}>
          Publish
        </Button>
        <Button size="sm" variant="default" disabled={dirty} onClick={() => setStep('schedule')} aria-expanded={step === 'schedule'}>
          Schedule
        </Button>
        {isPublic && (
          <Button size="sm" variant="default" color="red" onClick={() => setStep('unpublish')} aria-expanded={step === 'unpublish'}>
            Unpublish
          </Button>
        )}
      </Group>
      {dirty && (
        <Text size="xs" c="dimmed">
          Save your changes to publish them.
        </Text>
      )}
      {(campaign.scheduled_publish_at || campaign.scheduled_unpublish_at) && (
        <Text size="sm" data-testid="schedule-summary">
          {campaign.scheduled_publish_at &&
            `Publishes ${campaign.scheduled_publish_locales?.length ? `${campaign.scheduled_publish_locales.join(', ')} ` : ''}${shown(campaign.scheduled_publish_at, campaign.schedule_time_zone)}. `}
          {campaign.scheduled_unpublish_at && `Unpublishes ${shown(campaign.scheduled_unpublish_at, campaign.schedule_time_zone)}.`}
        </Text>
      )}
      {step === 'publish' && (
        <Paper withBorder p="sm" role="group" aria-label="Confirm publishing">
          <Stack gap="xs">
            <Text size="sm">Visitors of {campaign.url} will see this version now.</Text>
            <MultiSelect
              label="Only these locales (optional)"
              description="Left empty, every locale is published. Otherwise the other locales keep their published texts."
              data={localeOptions}
              value={locales}
              onChange={setLocales}
              clearable
              w={{ base: '100%', sm: 320 }}
            />
            <Group gap="xs">
              <Button size="xs" color="teal.9" loading={publish.isPending} autoFocus onClick={() => publish.mutate(locales.length ? { locales } : null, { onSuccess: done('Published'), onError: (e) => notifyError(e, 'Could not publish') })}>
                Publish now
              </Button>
              <Button size="xs" variant="default" onClick={() => setStep(null)} disabled={busy}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
      {step === 'unpublish' && (
        <Paper withBorder p="sm" role="group" aria-label="Confirm unpublishing">
          <Stack gap="xs">
            <Text size="sm">The page stops answering visitors (404). The draft and its history stay.</Text>
            <Group gap="xs">
              <Button size="xs" color="red.9" loading={unpublish.isPending} autoFocus onClick={() => unpublish.mutate(undefined, { onSuccess: done('Unpublished'), onError: (e) => notifyError(e, 'Could not unpublish') })}>
                Unpublish now
              </Button>
              <Button size="xs" variant="default" onClick={() => setStep(null)} disabled={busy}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
      {step === 'schedule' && (
        <Paper withBorder p="sm" role="group" aria-label="Schedule publishing">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              schedule.mutate(
                { publish_at: publishAt || null, unpublish_at: unpublishAt || null, time_zone: zone, locales: scheduleLocales.length ? scheduleLocales : null },
                { onSuccess: done(publishAt || unpublishAt ? 'Schedule saved' : 'Schedule cleared'), onError: (err) => notifyError(err, 'Could not schedule') },
              );
            }}
          >
            <Stack gap="xs">
              <Group gap="sm" align="flex-end" wrap="wrap">
                <TextInput type="datetime-local" step={1} label="Publish at" value={publishAt} onChange={(e) => setPublishAt(e.currentTarget.value)} data-autofocus autoFocus w={{ base: '100%', sm: 230 }} />
                <TextInput type="datetime-local" step={1} label="Unpublish at" value={unpublishAt} onChange={(e) => setUnpublishAt(e.currentTarget.value)} w={{ base: '100%', sm: 230 }} />
                <Select label="Time zone" searchable data={zones} value={zone} onChange={(v) => setZone(v ?? zone)} allowDeselect={false} w={{ base: '100%', sm: 230 }} />
              </Group>
              <MultiSelect
                label="Publish only these locales (optional)"
                description="Left empty, the scheduled publish publishes every locale. Otherwise the other locales keep their published texts."
                data={localeOptions}
                value={scheduleLocales}
                onChange={setScheduleLocales}
                clearable
                w={{ base: '100%', sm: 320 }}
              />
              <Text size="xs" c="dimmed">
                Times are read in the chosen time zone. Leave a field empty to clear it.
              </Text>
              <Group gap="xs">
                <Button size="xs" type="submit" loading={schedule.isPending}>
                  Save schedule
                </Button>
                <Button size="xs" variant="default" onClick={() => setStep(null)} disabled={busy}>
                  Cancel
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      )}
    </Stack>
  );
}
