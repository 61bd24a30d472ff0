import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Anchor, Button, ColorInput, Grid, Group, NumberInput, Paper, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MUSIC_TYPES, PLAYER_SERVICES, START_ALLOWED, WAITING_ROOM_MAX_MINUTES, type Party } from '@fanfare/protocol';
import { notifyDone, notifyError } from '../ui/notify.ts';
import { Failed, Loading } from '../ui/States.tsx';
import { GrantsPanel } from './GrantsPanel.tsx';
import { ApiError, partyOrigin, partyPreviewUrl, usePartyApi } from './partyApi.ts';
import { emptyPartyValues, FONT_OPTIONS, partyToValues, toPutPartyBody, toPutTracksBody, validatePartyValues, type PartyFormValues } from './partyForm.ts';
import { partyKey, useParty } from './queries.ts';

/** The party app in an iframe with its admin flag; reloaded after each save to show what was stored. */
function PartyPreview({ partyId, version }: { partyId: string; version: number }) {
  const src = partyPreviewUrl(partyOrigin(), partyId);
  return (
    <Paper withBorder p="xs" component="section" aria-label="Live preview">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          Preview
        </Title>
        <Anchor href={src} target="_blank" rel="noreferrer" size="sm">
          Open in a new tab
        </Anchor>
      </Group>
      <iframe key={version} title={`Preview of party ${partyId}`} src={src} style={{ width: '100%', height: 640, border: 0, borderRadius: 4 }} />
    </Paper>
  );
}

export function PartyForm({ partyId, party, onSaved }: { partyId: string; party: Party | null; onSaved: (p: Party) => void }) {
  const api = usePartyApi();
  const qc = useQueryClient();
  const frontend = party?.frontend ?? {};
  const form = useForm<PartyFormValues>({
    initialValues: party ? partyToValues(party) : emptyPartyValues(),
    validate: (values) => validatePartyValues(values, frontend),
  });
  const save = useMutation({
    mutationFn: async (values: PartyFormValues) => {
      const stored = await api.put(partyId, toPutPartyBody(values, frontend));
      const tracks = toPutTracksBody(values);
      const changedMusic = tracks && (tracks.id !== party?.music?.id || tracks.type !== party?.music?.type || tracks.service !== party?.music?.service);
      if (tracks && changedMusic) await api.putTracks(partyId, tracks);
      return changedMusic ? api.get(partyId) : stored;
    },
    onSuccess: (stored) => {
      qc.setQueryData(partyKey(partyId), stored);
      void qc.invalidateQueries({ queryKey: ['parties'] });
      form.resetDirty(partyToValues(stored));
      notifyDone(party ? 'Party saved' : 'Party created');
      onSaved(stored);
    },
    onError: (e) => notifyError(e),
  });
  return (
    <form aria-label="Party settings" onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
      <Stack gap="md">
        <TextInput label="Name" required {...form.getInputProps('name')} />
        <Group grow wrap="wrap">
          <TextInput type="datetime-local" label="Starts" required {...form.getInputProps('startsAt')} />
          <TextInput type="datetime-local" label="Ends" description="Empty: open-ended" {...form.getInputProps('endsAt')} />
        </Group>
        <Group grow wrap="wrap">
          <NumberInput label="Waiting room (minutes before start)" min={0} max={WAITING_ROOM_MAX_MINUTES} allowDecimal={false} {...form.getInputProps('waitingRoomMinutes')} />
          <Select label="Who may start" data={START_ALLOWED.map((v) => ({ value: v, label: v }))} allowDeselect={false} {...form.getInputProps('startAllowed')} />
          <TextInput label="WordPress post id" inputMode="numeric" {...form.getInputProps('wpPostId')} />
        </Group>
        <Group wrap="wrap">
          <Switch label="Auto start" {...form.getInputProps('autoStart', { type: 'checkbox' })} />
          <Switch label="Voting" {...form.getInputProps('votingEnabled', { type: 'checkbox' })} />
          <Switch label="Login required" {...form.getInputProps('loginRequired', { type: 'checkbox' })} />
        </Group>
        <Title order={2} size="h4">
          Music
        </Title>
        <Group grow wrap="wrap">
          <Select label="Type" data={MUSIC_TYPES.map((v) => ({ value: v, label: v }))} allowDeselect={false} {...form.getInputProps('musicType')} />
          <Select label="Service" data={PLAYER_SERVICES.map((v) => ({ value: v, label: v }))} allowDeselect={false} {...form.getInputProps('musicService')} />
          <TextInput label="Album or playlist id" {...form.getInputProps('musicId')} />
        </Group>
        {party?.music && (
          <Text size="sm" c="dimmed">
            Now: {party.music.type} {party.music.id} on {party.music.service}
            {party.is_playable ? '' : ' (no playable tracks)'}
          </Text>
        )}
        <Title order={2} size="h4">
          Look
        </Title>
        <Group grow wrap="wrap">
          <ColorInput label="Primary colour" format="hex" {...form.getInputProps('primaryColor')} />
          <ColorInput label="Background colour" format="hex" {...form.getInputProps('backgroundColor')} />
          <Select label="Font" data={[{ value: '', label: 'Default' }, ...FONT_OPTIONS.map((v) => ({ value: v, label: v }))]} allowDeselect={false} {...form.getInputProps('font')} />
        </Group>
        <Switch label="Dark mode" {...form.getInputProps('dark', { type: 'checkbox' })} />
        <Group>
          <Button type="submit" loading={save.isPending}>
            {party ? 'Save' : 'Create party'}
          </Button>
          {party && form.isDirty() && <Text size="sm">Unsaved changes</Text>}
        </Group>
      </Stack>
    </form>
  );
}

/** Create (unknown id) or edit a party, with its grants and a live preview beside it. */
export default function PartyEditorScreen() {
  const { id = '' } = useParams();
  const query = useParty(id);
  const [version, setVersion] = useState(0);
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  if (query.isPending) return <Loading label="Loading the party…" />;
  if (query.isError && !notFound) return <Failed error={query.error} retry={() => void query.refetch()} />;
  const party = query.data ?? null;
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1}>{party ? party.name : `New party ${id}`}</Title>
        <Anchor component={Link} to="/parties">
          All parties
        </Anchor>
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="xl">
            <PartyForm key={party?.updated_at ?? 'new'} partyId={id} party={party} onSaved={() => setVersion((v) => v + 1)} />
            {party && <GrantsPanel partyId={id} />}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>{party ? <PartyPreview partyId={id} version={version} /> : <Text c="dimmed">The preview appears once the party is created.</Text>}</Grid.Col>
      </Grid>
    </Stack>
  );
}
