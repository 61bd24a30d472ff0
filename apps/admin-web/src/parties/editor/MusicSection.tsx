import { useState } from 'react';
import { Alert, Badge, Button, Checkbox, Group, Image, Paper, SegmentedControl, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { MUSIC_TYPES, PLAYER_SERVICES, type MusicAlbum, type MusicPlaylist, type MusicType, type PlayerService } from '@fanfare/protocol';
import { ApiError } from '../partyApi.ts';
import type { PartyFormApi } from './formApi.ts';
import { Loading } from '../../ui/States.tsx';
import { parseCatalogRef, pickId, searchDemo, type CatalogPick } from './catalog.ts';

const SERVICE_LABEL: Record<PlayerService, string> = { spotify: 'Spotify', apple: 'Apple Music', umg_hls: 'Label stream (umg_hls)' };
const minutes = (ms: number) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}`;

export interface LookupState {
  data: MusicAlbum | MusicPlaylist | undefined;
  isFetching: boolean;
  error: unknown;
}

/** Demo catalog by name, or a pasted link or id: fills type, id (and service, country) of the form. */
function FindMusic({ form }: { form: PartyFormApi }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const values = form.getValues();
  const hits = searchDemo(text);
  const choose = (p: CatalogPick) => {
    form.setFieldValue('musicType', p.type);
    form.setFieldValue('musicId', pickId(p, values.musicService));
    form.setFieldValue('excluded', []);
  };
  const applyRef = () => {
    const ref = parseCatalogRef(text);
    if (!ref) return setError('Not a Spotify or Apple Music link, nor an id');
    setError(null);
    if (ref.service) form.setFieldValue('musicService', ref.service);
    if (ref.type) form.setFieldValue('musicType', ref.type);
    if (ref.country) form.setFieldValue('musicCountry', ref.country);
    form.setFieldValue('musicId', ref.id);
    form.setFieldValue('excluded', []);
  };
  return (
    <Stack gap="xs">
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Find music"
          description="A name from the demo catalog, or a Spotify / Apple Music link or id"
          value={text}
          onChange={(e) => (setText(e.currentTarget.value), setError(null))}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              if (hits.length === 1) choose(hits[0]!);
              else applyRef();
            }
          }}
          error={error}
          style={{ flex: 1, minWidth: 220 }}
        />
        <Button variant="light" onClick={applyRef}>
          Use link or id
        </Button>
      </Group>
      <Group gap="xs" wrap="wrap" role="group" aria-label="Demo catalog">
        {hits.map((p) => (
          <Button key={`${p.type}-${p.ids.spotify}`} size="xs" variant={values.musicId === pickId(p, values.musicService) ? 'filled' : 'default'} onClick={() => choose(p)}>
            {p.name} · {p.type} · {p.by}
          </Button>
        ))}
        {hits.length === 0 && (
          <Text size="sm" c="dimmed">
            Nothing in the demo catalog matches; paste a link or id.
          </Text>
        )}
      </Group>
    </Stack>
  );
}

/** The looked-up album or playlist with its track list; each track can be left out of the party. */
function TrackPreview({ form, lookup }: { form: PartyFormApi; lookup: LookupState }) {
  const values = form.getValues();
  if (values.musicId.trim() === '') return <Text c="dimmed">Choose an album or playlist to see its tracks.</Text>;
  if (lookup.isFetching && !lookup.data) return <Loading label="Looking up the catalog…" />;
  if (lookup.error) {
    const notFound = lookup.error instanceof ApiError && lookup.error.status === 404;
    return (
      <Alert color="red" title={notFound ? 'Not found in the catalog' : 'The lookup failed'} role="alert">
        {notFound ? `No ${values.musicType} with id ${values.musicId} on ${SERVICE_LABEL[values.musicService]} (${values.musicCountry}).` : lookup.error instanceof Error ? lookup.error.message : String(lookup.error)}
      </Alert>
    );
  }
  const music = lookup.data;
  if (!music) return null;
  const excluded = new Set(values.excluded);
  const by = 'artists' in music ? music.artists.map((a) => a.name).join(', ') : music.owner;
  const toggle = (id: string, include: boolean) => {
    const next = include ? values.excluded.filter((x) => x !== id) : [...values.excluded, id];
    form.setFieldValue('excluded', next);
  };
  const playing = music.tracks.length - music.tracks.filter((t) => excluded.has(t.id)).length;
  return (
    <Paper withBorder p="sm">
      <Group wrap="nowrap" align="flex-start" mb="sm">
        {music.image && <Image src={music.image} alt="" w={72} h={72} radius="sm" />}
        <div>
          <Text fw={600} data-testid="music-name">
            {music.name}
          </Text>
          <Text size="sm" c="dimmed">
            {by}
          </Text>
          <Text size="sm">
            {playing} of {music.tracks.length} tracks play{excluded.size > 0 ? `, ${excluded.size} excluded` : ''}
          </Text>
        </div>
      </Group>
      {music.tracks.length === 0 ? (
        <Text c="dimmed">This {values.musicType} has no tracks.</Text>
      ) : (
        <Table.ScrollContainer minWidth={360}>
          <Table aria-label="Tracks">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={90}>Plays</Table.Th>
                <Table.Th>Track</Table.Th>
                <Table.Th w={70}>Length</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {music.tracks.map((t, i) => {
                const out = excluded.has(t.id);
                return (
                  <Table.Tr key={t.id} opacity={out ? 0.6 : 1}>
                    <Table.Td>
                      <Checkbox checked={!out} onChange={(e) => toggle(t.id, e.currentTarget.checked)} aria-label={`Play ${t.name}`} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" td={out ? 'line-through' : undefined}>
                        {i + 1}. {t.name}
                      </Text>
                      <Group gap={4}>
                        <Text size="xs" c="dimmed">
                          {t.artists.join(', ')}
                        </Text>
                        {out && (
                          <Badge size="xs" color="gray" variant="light">
                            Excluded
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{minutes(t.duration_ms)}</Text>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}

/** The party's music (spec 7 "Search" and "Tracks"): find it, check its tracks, leave some out. */
export function MusicSection({ form, lookup }: { form: PartyFormApi; lookup: LookupState }) {
  const resetExcluded = () => form.setFieldValue('excluded', []);
  return (
    <Stack gap="md">
      <Title order={2} size="h4">
        Music
      </Title>
      <FindMusic form={form} />
      <Group grow wrap="wrap" align="flex-start">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="music-type-label">
            Type
          </Text>
          <SegmentedControl
            aria-labelledby="music-type-label"
            data={MUSIC_TYPES.map((v) => ({ value: v, label: v === 'album' ? 'Album' : 'Playlist' }))}
            {...form.getInputProps('musicType')}
            onChange={(v) => (form.setFieldValue('musicType', v as MusicType), resetExcluded())}
          />
        </Stack>
        <Select
          label="Service"
          data={PLAYER_SERVICES.map((v) => ({ value: v, label: SERVICE_LABEL[v] }))}
          allowDeselect={false}
          {...form.getInputProps('musicService')}
          onChange={(v) => v && (form.setFieldValue('musicService', v as PlayerService), resetExcluded())}
        />
        <TextInput label="Country" description="Storefront, two letters" maxLength={2} {...form.getInputProps('musicCountry')} />
      </Group>
      <TextInput label="Album or playlist id" {...form.getInputProps('musicId')} onChange={(e) => (form.setFieldValue('musicId', e.currentTarget.value), resetExcluded())} />
      <TrackPreview form={form} lookup={lookup} />
    </Stack>
  );
}
