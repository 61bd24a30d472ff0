import { useRef, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Anchor, Badge, Button, Grid, Group, NumberInput, SegmentedControl, Select, Stack, Switch, Tabs, Text, TextInput, Title } from '@mantine/core';
import { usePartyForm, type PartyFormApi } from './editor/formApi.ts';
import { useDebouncedValue, useHotkeys, useMediaQuery, useWindowEvent } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { START_ALLOWED, WAITING_ROOM_MAX_MINUTES, type Party, type PartyTrack, type PartyTracksResponse, type PutTracksBody } from '@fanfare/protocol';
import { notifyDone, notifyError } from '../ui/notify.ts';
import { Failed, Loading } from '../ui/States.tsx';
import { FollowSection } from './editor/FollowSection.tsx';
import { FrontendSection } from './editor/FrontendSection.tsx';
import { MusicSection } from './editor/MusicSection.tsx';
import { PartyPreview } from './editor/PartyPreview.tsx';
import { VisualSection } from './editor/VisualSection.tsx';
import { GrantsPanel } from './GrantsPanel.tsx';
import { PartyHistoryPanel } from './PartyHistoryPanel.tsx';
import { ApiError, usePartyApi, type CatalogQuery } from './partyApi.ts';
import { emptyPartyValues, partyToValues, toPreviewParty, toPutPartyBody, toPutTracksBody, validatePartyValues, type PartyFormValues } from './partyForm.ts';
import { partyKey, tracksKey, useCatalogLookup, useParty, usePartyTracks } from './queries.ts';

type Tab = 'general' | 'music' | 'follow' | 'pages' | 'look';
const TABS: { value: Tab; label: string }[] = [
  { value: 'general', label: 'General' },
  { value: 'music', label: 'Music' },
  { value: 'follow', label: 'Follow' },
  { value: 'pages', label: 'Pages & FAQ' },
  { value: 'look', label: 'Look' },
];

/** The tab that shows the field of an error key (`visual.primaryColor` → look). */
export function tabOfField(key: string): Tab {
  if (key.startsWith('music') || key === 'excluded') return 'music';
  if (key.startsWith('follow')) return 'follow';
  if (key.startsWith('visual')) return 'look';
  if (key.startsWith('faq') || key.startsWith('pageModules') || key === 'competitionIsEnabled') return 'pages';
  return 'general';
}

/** True when the tracks call must be made: another album or playlist, or other excluded tracks. */
export function musicChanged(next: PutTracksBody, stored: PartyTracksResponse | undefined): boolean {
  const o = stored?.options;
  if (!o || o.id !== next.id || o.type !== next.type || o.service !== next.service || o.country !== next.country) return true;
  const a = [...(next.excluded ?? [])].sort();
  const b = [...(stored.excluded ?? [])].sort();
  return a.length !== b.length || a.some((x, i) => x !== b[i]);
}

function GeneralSection({ form }: { form: PartyFormApi }) {
  return (
    <Stack gap="md">
      <Title order={2} size="h4">
        General
      </Title>
      <TextInput label="Name" required {...form.getInputProps('name')} />
      <Group grow wrap="wrap" align="flex-start">
        <TextInput type="datetime-local" label="Starts" required {...form.getInputProps('startsAt')} />
        <TextInput type="datetime-local" label="Ends" description="Empty: open-ended" {...form.getInputProps('endsAt')} />
      </Group>
      <Group grow wrap="wrap" align="flex-start">
        <NumberInput label="Waiting room (minutes before start)" min={0} max={WAITING_ROOM_MAX_MINUTES} allowDecimal={false} {...form.getInputProps('waitingRoomMinutes')} />
        <Select label="Who may start" data={START_ALLOWED.map((v) => ({ value: v, label: v }))} allowDeselect={false} {...form.getInputProps('startAllowed')} />
        <TextInput label="WordPress post id" inputMode="numeric" {...form.getInputProps('wpPostId')} />
      </Group>
      <Group wrap="wrap">
        <Switch label="Auto start" {...form.getInputProps('autoStart', { type: 'checkbox' })} />
        <Switch label="Voting" {...form.getInputProps('votingEnabled', { type: 'checkbox' })} />
        <Switch label="Login required" {...form.getInputProps('loginRequired', { type: 'checkbox' })} />
        <Switch
          label="Read-only waiting room"
          description="Fans read the chat before the start but post, react and answer only once the party starts; hosts and admins may post"
          {...form.getInputProps('waitingRoomReadOnly', { type: 'checkbox' })}
        />
        <Switch
          label="Label stream for fans who cannot play"
          description="Fans on Spotify Free, without an Apple Music subscription or in a browser their service cannot play in hear the label's stream; off: 30-second previews"
          {...form.getInputProps('labelStreamFallback', { type: 'checkbox' })}
        />
      </Group>
    </Stack>
  );
}

/**
 * The whole party form: tabs of settings, validated with the protocol schemas, saved with
 * `PUT .../parties/{id}` and (when the music changed) `PUT .../tracks`. `preview` renders beside it
 * with the party and tracks as the form holds them, before they are saved.
 */
export function PartyForm(props: {
  partyId: string;
  party: Party | null;
  storedTracks?: PartyTracksResponse;
  onSaved: (p: Party) => void;
  /** The preview beside the form; `onWide` widens its column while it shows the 1280 px layout. */
  preview?: (party: Party, tracks: PartyTrack[], onWide: (wide: boolean) => void) => ReactNode;
}) {
  const { partyId, party, storedTracks, onSaved } = props;
  const api = usePartyApi();
  const qc = useQueryClient();
  const frontend = party?.frontend ?? {};
  const [tab, setTab] = useState<Tab>('general');
  const form = usePartyForm(party ? partyToValues(party, storedTracks?.excluded ?? []) : emptyPartyValues(), (values) => validatePartyValues(values, frontend));
  const values = form.getValues();

  const [query] = useDebouncedValue<CatalogQuery | null>(
    values.musicId.trim() ? { type: values.musicType, service: values.musicService, country: values.musicCountry.trim().toLowerCase(), id: values.musicId.trim() } : null,
    300,
  );
  const lookup = useCatalogLookup(query && /^[a-z]{2}$/.test(query.country) ? query : null);

  const save = useMutation({
    mutationFn: async (v: PartyFormValues) => {
      const stored = await api.put(partyId, toPutPartyBody(v, frontend));
      const tracks = toPutTracksBody(v);
      if (tracks && musicChanged(tracks, storedTracks)) {
        qc.setQueryData(tracksKey(partyId), await api.putTracks(partyId, tracks));
        return api.get(partyId);
      }
      return stored;
    },
    onSuccess: (stored) => {
      qc.setQueryData(partyKey(partyId), stored);
      void qc.invalidateQueries({ queryKey: ['parties'] });
      notifyDone(party ? 'Party saved' : 'Party created');
      onSaved(stored);
    },
    onError: (e) => notifyError(e),
  });

  // Ctrl/Cmd+S saves from any field; leaving the tab with unsaved changes asks first.
  const formElement = useRef<HTMLFormElement>(null);
  useHotkeys([['mod+S', () => formElement.current?.requestSubmit()]], []);
  const dirty = form.isDirty();
  useWindowEvent('beforeunload', (e) => {
    if (dirty) e.preventDefault();
  });

  const errorTabs = new Set(Object.keys(form.errors).map(tabOfField));
  // The preview's party and tracks: the form's values over the stored party; tracks from the lookup.
  // A new party's timestamps are fixed per form: otherwise every render would be a new preview.
  const [createdAt] = useState(() => new Date().toISOString());
  const [wide, setWide] = useState(false);
  // Mantine's lg breakpoint (75em), where the grid puts the preview beside the form.
  const narrow = useMediaQuery('(max-width: 74.99em)') ?? false;
  const [view, setView] = useState<'form' | 'preview'>('form');
  const previewParty = toPreviewParty(partyId, values, party, createdAt);
  const lookupTracks = lookup.data?.tracks;
  const excludedIds = new Set(values.excluded);
  const previewTracks: PartyTrack[] = lookupTracks
    ? lookupTracks.filter((t) => !excludedIds.has(t.id)).map((t, i) => ({ ...t, votes: 0, played: false, position: i }))
    : (storedTracks?.items ?? []).filter((t) => !excludedIds.has(t.id));

  const formBody = (
    <form
      ref={formElement}
      aria-label="Party settings"
      onSubmit={form.onSubmit(
        (v) => save.mutate(v),
        (errors) => {
          setTab(tabOfField(Object.keys(errors)[0] ?? 'name'));
          setView('form');
        },
      )}
      noValidate
    >
      <Stack gap="md">
        <Tabs value={tab} onChange={(v) => v && setTab(v as Tab)} keepMounted>
          <Tabs.List>
            {TABS.map((t) => (
              <Tabs.Tab key={t.value} value={t.value} rightSection={errorTabs.has(t.value) ? <Badge size="xs" color="red" circle aria-label="has errors">!</Badge> : undefined}>
                {t.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="general" pt="md">
            <GeneralSection form={form} />
          </Tabs.Panel>
          <Tabs.Panel value="music" pt="md">
            <MusicSection form={form} lookup={{ data: lookup.data, isFetching: lookup.isFetching, error: lookup.error }} />
          </Tabs.Panel>
          <Tabs.Panel value="follow" pt="md">
            <FollowSection form={form} />
          </Tabs.Panel>
          <Tabs.Panel value="pages" pt="md">
            <FrontendSection form={form} />
          </Tabs.Panel>
          <Tabs.Panel value="look" pt="md">
            <VisualSection form={form} />
          </Tabs.Panel>
        </Tabs>
        <Group
          gap="sm"
          py="xs"
          style={{ position: 'sticky', bottom: 0, background: 'var(--mantine-color-body)', borderTop: '1px solid var(--mantine-color-default-border)', zIndex: 2 }}
        >
          <Button type="submit" loading={save.isPending}>
            {party ? 'Save' : 'Create party'}
          </Button>
          {dirty && (
            <Text size="sm" data-testid="unsaved">
              Unsaved changes
            </Text>
          )}
          {errorTabs.size > 0 && (
            <Text size="sm" c="red" role="alert">
              Fix the marked fields ({[...errorTabs].map((t) => TABS.find((x) => x.value === t)?.label).join(', ')})
            </Text>
          )}
        </Group>
      </Stack>
    </form>
  );

  if (!props.preview) return formBody;
  // Below the two-column width the preview would sit under the whole form: a switch shows one or
  // the other instead. Both stay mounted (hidden, not removed) so the frame keeps its state.
  const showForm = !narrow || view === 'form';
  const showPreview = !narrow || view === 'preview';
  return (
    <Stack gap="sm">
      {narrow && (
        <div style={{ position: 'sticky', top: 56, zIndex: 3, background: 'var(--mantine-color-body)', paddingBlock: 6 }}>
          <SegmentedControl
            fullWidth
            aria-label="Show settings or preview"
            value={view}
            onChange={(v) => setView(v as 'form' | 'preview')}
            data={[
              { value: 'form', label: 'Settings' },
              { value: 'preview', label: 'Preview' },
            ]}
            data-testid="editor-view"
          />
        </div>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: wide ? 5 : 7 }} style={showForm ? undefined : { display: 'none' }}>
          {formBody}
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: wide ? 7 : 5 }} style={showPreview ? undefined : { display: 'none' }}>
          <div style={narrow ? undefined : { position: 'sticky', top: 72 }}>{props.preview(previewParty, previewTracks, setWide)}</div>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** Create (unknown id) or edit a party, with a live preview beside it and its grants below. */
export default function PartyEditorScreen() {
  const { id = '' } = useParams();
  const query = useParty(id);
  const exists = query.isSuccess;
  const tracks = usePartyTracks(id, exists);
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  if (query.isPending || (exists && tracks.isPending)) return <Loading label="Loading the party…" />;
  if (query.isError && !notFound) return <Failed error={query.error} retry={() => void query.refetch()} />;
  const party = query.data ?? null;
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{party ? party.name : `New party ${id}`}</Title>
        <Anchor component={Link} to="/parties">
          All parties
        </Anchor>
      </Group>
      {tracks.isError && <Failed error={tracks.error} retry={() => void tracks.refetch()} />}
      <PartyForm
        key={party?.updated_at ?? "new"}
        partyId={id}
        party={party}
        storedTracks={tracks.data}
        onSaved={() => undefined}
        preview={(p, t, onWide) => <PartyPreview partyId={id} party={p} tracks={t} onWide={onWide} />}
      />
      {party ? <GrantsPanel partyId={id} /> : <Text c="dimmed">Grants can be added once the party is created.</Text>}
      {party && <PartyHistoryPanel partyId={id} savedAt={party.updated_at} />}
    </Stack>
  );
}
