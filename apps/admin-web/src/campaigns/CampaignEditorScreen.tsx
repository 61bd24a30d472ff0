import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useBlocker, useParams } from 'react-router';
import { Alert, Anchor, Badge, Button, Grid, Group, Modal, Stack, Tabs, Text, Title } from '@mantine/core';
import { useHotkeys, useWindowEvent } from '@mantine/hooks';
import type { Campaign } from '@fanfare/protocol';
import { useCan } from '../api/context.tsx';
import { LedgerView } from '../newsletter/LedgerView.tsx';
import { PreviewPane } from '../preview/PreviewPane.tsx';
import { notifyDone, notifyError } from '../ui/notify.ts';
import { Failed, Loading } from '../ui/States.tsx';
import { useNow } from '../ui/useNow.ts';
import { useSlugTaken } from './CreateCampaignModal.tsx';
import { pageOf, previewCampaign, toDraft, toPatch, withModuleField } from './editor/draft.ts';
import { mediaFieldTarget } from '../preview/mediaField.ts';
import { previewable, problemText } from '../preview/previewable.ts';
import { useDraftForm } from './editor/useDraftForm.ts';
import { GeneralFields, MetaFields, NewsletterFields, TokenGateFields } from './editor/fields.tsx';
import { ModulesField } from './editor/ModulesField.tsx';
import { TranslationsField } from './editor/TranslationsField.tsx';
import { useEditLock, type LockState } from './editor/useEditLock.ts';
import { useCampaign, useCountries, usePatchCampaign } from './queries.ts';
import { campaignState, STATE_COLOURS } from './timing.ts';
import { HistoryPanel } from './editorial/HistoryPanel.tsx';
import { ReleasePanel } from './release/ReleasePanel.tsx';
import { PublishBar } from './editorial/PublishBar.tsx';
import { StatusBadge } from './editorial/StatusBadge.tsx';

// Charts load only when the Funnel tab opens.
const FunnelPanel = lazy(() => import('./funnel/FunnelPanel.tsx'));

export default function CampaignEditorScreen() {
  const { id = '' } = useParams();
  const campaign = useCampaign(id);
  if (campaign.isPending) return <Loading label="Loading the campaign…" />;
  if (campaign.isError) return <Failed error={campaign.error} retry={() => void campaign.refetch()} />;
  return <Editor key={campaign.data.id} stored={campaign.data} />;
}

// Black titles: Mantine's yellow and red titles on their light backgrounds miss WCAG AA.
const BANNER_STYLES = { title: { color: 'var(--mantine-color-black)' } };

function LockBanner({ state, onTakeOver, onRetry }: { state: LockState; onTakeOver: () => void; onRetry: () => void }) {
  if (state.kind === 'readOnly')
    return (
      <Alert color="yellow" title={state.holder ? `${state.holder} is editing this campaign` : 'Read-only'} role="status" data-testid="lock-banner" styles={BANNER_STYLES}>
        <Group justify="space-between">
          <Text size="sm">{state.holder ? 'You see it read-only. Take over to edit: their unsaved changes are lost and they are told at once.' : 'Your role may not edit campaigns.'}</Text>
          {state.holder && (
            <Group gap="xs">
              <Button size="xs" variant="default" onClick={onRetry}>
                Check again
              </Button>
              <Button size="xs" color="dark" onClick={onTakeOver}>
                Take over
              </Button>
            </Group>
          )}
        </Group>
      </Alert>
    );
  if (state.kind === 'lost')
    return (
      <Alert color="red" title={`${state.holder} took over this campaign`} role="alert" data-testid="lock-banner" styles={BANNER_STYLES}>
        <Group justify="space-between">
          <Text size="sm">Your editor is read-only now; changes you had not saved are not stored.</Text>
          <Button size="xs" color="red.9" onClick={onTakeOver}>
            Take it back
          </Button>
        </Group>
      </Alert>
    );
  if (state.kind === 'failed') return <Failed error={state.error} retry={onRetry} />;
  return null;
}

function Editor({ stored: initial }: { stored: Campaign }) {
  const canWrite = useCan('campaigns.write');
  const canSeeSubscribers = useCan('newsletter.export');
  const [stored, setStored] = useState(initial);
  const [saved, setSaved] = useState<Campaign | null>(null);
  const lock = useEditLock(initial.id, canWrite);
  const readOnly = lock.state.kind !== 'editing';
  const patch = usePatchCampaign(initial.id);
  const countries = useCountries();
  const form = useDraftForm(initial);
  const dirty = form.isDirty();
  const { taken: slugTaken } = useSlugTaken(stored.app_id, form.values.slug, stored.slug);
  const draftCampaign = useMemo(() => previewCampaign(stored, form.values), [stored, form.values]);
  // What the draft lacks is shown inline next to each field (the preview leaves those parts out).
  const problems = useMemo(() => previewable(draftCampaign).problems.filter((p) => p.path.startsWith('data.page.modules.') || p.path.startsWith('newsletters.')), [draftCampaign]);
  const { setErrors } = form;
  useEffect(() => {
    setErrors(Object.fromEntries(problems.map((p) => [p.path, problemText(p)])));
  }, [problems, setErrors]);

  // A campaign the server answered (saved, restored): the form starts over from it.
  const applyStored = (c: Campaign) => {
    setStored(c);
    setSaved(c);
    form.setInitialValues(toDraft(c));
    form.setValues(toDraft(c));
    form.resetDirty(toDraft(c));
  };
  const save = form.onSubmit((values) => {
    if (readOnly || slugTaken) return;
    patch.mutate(toPatch(values), {
      onSuccess: (c) => {
        applyStored(c);
        notifyDone('Saved');
      },
      onError: (e) => notifyError(e),
    });
  });
  useHotkeys([['mod+S', () => save()]], []);

  // Unsaved changes: ask before leaving the editor in the app, and before closing the tab.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !readOnly && currentLocation.pathname !== nextLocation.pathname);
  useWindowEvent('beforeunload', (e) => {
    if (dirty && !readOnly) e.preventDefault();
  });
  useEffect(() => {
    if (lock.state.kind === 'lost') notifyError(`${lock.state.holder} took over this campaign`, 'Editing stopped');
  }, [lock.state]);

  const now = useNow();
  const state = campaignState(stored, now);
  const locales = stored.i18n?.locales?.map((l) => l.code) ?? ['de', 'en'];
  const countryOptions = (countries.data?.items ?? []).map((c) => ({ value: c.code, label: c.name }));

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Stack gap={0} maw="100%">
          <Anchor component={Link} to="/campaigns" size="sm">
            ← Campaigns
          </Anchor>
          <Group gap="xs">
            <Title order={2}>{stored.name}</Title>
            <StatusBadge status={stored.status} />
            <Badge color={STATE_COLOURS[state]} variant="filled">
              {state}
            </Badge>
            {dirty && !readOnly && (
              <Badge color="red.9" variant="filled" data-testid="unsaved">
                Unsaved changes
              </Badge>
            )}
          </Group>
          <Anchor href={stored.url} target="_blank" rel="noopener" size="sm" style={{ wordBreak: 'break-all' }}>
            {stored.url}
          </Anchor>
        </Stack>
        <Group gap="xs">
          <Button variant="default" disabled={!dirty || readOnly} onClick={() => form.reset()}>
            Discard changes
          </Button>
          <Button onClick={() => save()} loading={patch.isPending} disabled={readOnly || !dirty || slugTaken}>
            Save
          </Button>
        </Group>
      </Group>
      <PublishBar campaign={stored} dirty={dirty && !readOnly} onChanged={(c) => setStored(c)} />
      <LockBanner state={lock.state} onTakeOver={() => void lock.takeOver().catch((e: unknown) => notifyError(e, 'Could not take over'))} onRetry={() => void lock.retry()} />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <form onSubmit={save} noValidate aria-label="Campaign">
            <Tabs defaultValue="general" keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="general">General</Tabs.Tab>
                <Tabs.Tab value="modules">Page modules</Tabs.Tab>
                <Tabs.Tab value="newsletters">Newsletters</Tabs.Tab>
                <Tabs.Tab value="gate">Token gate</Tabs.Tab>
                <Tabs.Tab value="release">Release</Tabs.Tab>
                <Tabs.Tab value="translations">Translations</Tabs.Tab>
                <Tabs.Tab value="meta">Meta & tracking</Tabs.Tab>
                {canSeeSubscribers && <Tabs.Tab value="subscribers">Subscribers</Tabs.Tab>}
                <Tabs.Tab value="history">History</Tabs.Tab>
                <Tabs.Tab value="funnel">Funnel</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="general" pt="md">
                <GeneralFields form={form} readOnly={readOnly} slugTaken={slugTaken} countries={countryOptions} />
              </Tabs.Panel>
              <Tabs.Panel value="modules" pt="md">
                <ModulesField form={form} readOnly={readOnly} locales={locales} defaultLocale={stored.i18n?.default_locale ?? 'de'} />
              </Tabs.Panel>
              <Tabs.Panel value="newsletters" pt="md">
                <NewsletterFields form={form} readOnly={readOnly} />
              </Tabs.Panel>
              <Tabs.Panel value="gate" pt="md">
                <TokenGateFields form={form} readOnly={readOnly} campaignUrl={stored.url} />
              </Tabs.Panel>
              <Tabs.Panel value="release" pt="md">
                <ReleasePanel form={form} readOnly={readOnly} stored={stored} />
              </Tabs.Panel>
              <Tabs.Panel value="translations" pt="md">
                <TranslationsField form={form} readOnly={readOnly} />
              </Tabs.Panel>
              <Tabs.Panel value="meta" pt="md">
                <MetaFields form={form} readOnly={readOnly} />
              </Tabs.Panel>
              {canSeeSubscribers && (
                <Tabs.Panel value="subscribers" pt="md">
                  <LedgerView campaign={stored} />
                </Tabs.Panel>
              )}
              <Tabs.Panel value="history" pt="md">
                <HistoryPanel campaign={stored} readOnly={readOnly} onRestored={applyStored} />
              </Tabs.Panel>
              <Tabs.Panel value="funnel" pt="md">
                <Suspense fallback={<Loading label="Loading the funnel…" />}>
                  <FunnelPanel campaign={stored} />
                </Suspense>
              </Tabs.Panel>
            </Tabs>
          </form>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <PreviewPane
            stored={stored}
            draft={draftCampaign}
            savedVersion={saved}
            onMediaPicked={(fieldId, url) => {
              const target = mediaFieldTarget(fieldId, (pageOf(form.values).modules ?? []).length);
              if (readOnly || !target) return;
              form.setFieldValue('data', withModuleField(form.values, target.index, target.key, url));
            }}
          />
        </Grid.Col>
      </Grid>
      <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title="Leave without saving?">
        <Stack>
          <Text size="sm">Your changes to {stored.name} are not saved yet.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => blocker.reset?.()}>
              Stay
            </Button>
            <Button color="red" onClick={() => blocker.proceed?.()}>
              Leave and discard
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
