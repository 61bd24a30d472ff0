import { useState } from 'react';
import { ActionIcon, Button, Group, Image, Modal, Paper, Select, Stack, TagsInput, Text, TextInput, Textarea } from '@mantine/core';
import { MediaLibrary } from '../../media/MediaLibrary.tsx';
import { IMAGE_FIELDS } from '../../preview/mediaField.ts';
import { addPickedTracks, PLAYER_PICKS, trackName } from '../../parties/editor/catalog.ts';
import { PAGE_MODULE_TYPES, type CampaignPageInput, type PageModuleType } from '@fanfare/protocol';
import type { DraftForm } from './fields.tsx';
import { pageOf } from './draft.ts';
import { shownInsteadOf } from './localeFallback.ts';

/** Which texts (per locale) and addresses each module type has, to draw its fields. */
const MODULE_FIELDS: Record<PageModuleType, { texts: string[]; urls: string[]; longText?: string }> = {
  hero: { texts: ['title', 'subtitle'], urls: ['cover_image'] },
  countdown: { texts: ['title', 'ended_text'], urls: [] },
  newsletter: { texts: ['title', 'text'], urls: [] },
  player: { texts: ['title'], urls: [] },
  text: { texts: ['title'], urls: [], longText: 'body' },
  card: { texts: ['title', 'text', 'button_label'], urls: ['url', 'image'] },
  links: { texts: ['title', 'ticket_label'], urls: ['ticket_url'] },
  presave: { texts: ['title', 'text'], urls: [] },
};

const label = (k: string) => k.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

function newModule(type: PageModuleType, n: number): Record<string, unknown> {
  const base = { id: `${type}-${n}`, type };
  if (type === 'text') return { ...base, body: { de: '', en: '' } };
  if (type === 'player') return { ...base, spotify_track_ids: [] };
  if (type === 'links') return { ...base, socials: [] };
  return base;
}

/** The page's modules in order, each with its content per locale. */
export function ModulesField({ form, readOnly, locales, defaultLocale = locales[0] ?? 'de' }: { form: DraftForm; readOnly: boolean; locales: string[]; defaultLocale?: string }) {
  const [picking, setPicking] = useState<{ index: number; key: string } | null>(null);
  const page = pageOf(form.values);
  const modules = (page.modules ?? []) as Record<string, unknown>[];
  const setModules = (next: Record<string, unknown>[]) => form.setFieldValue('data', { ...form.values.data, page: { ...page, modules: next } as CampaignPageInput } as typeof form.values.data);
  const setField = (i: number, key: string, value: unknown) => setModules(modules.map((m, j) => (j === i ? { ...m, [key]: value } : m)));
  const move = (i: number, by: -1 | 1) => {
    const next = [...modules];
    const [m] = next.splice(i, 1);
    next.splice(i + by, 0, m!);
    setModules(next);
  };
  const errorOf = (i: number) =>
    Object.entries(form.errors)
      .filter(([k]) => k.startsWith(`data.page.modules.${i}`))
      .map(([k, v]) => `${k.split('.').slice(4).join('.') || 'module'}: ${v}`)
      .join('; ');
  return (
    <Stack>
      {modules.length === 0 && (
        <Text size="sm" c="dimmed">
          The page has no modules yet. Add a hero, a countdown, a newsletter form, a player, text, cards or links.
        </Text>
      )}
      {modules.map((m, i) => {
        const type = m.type as PageModuleType;
        const spec = MODULE_FIELDS[type];
        const err = errorOf(i);
        return (
          <Paper key={i} withBorder p="sm" aria-label={`Module ${i + 1}: ${type}`} component="section">
            <Stack gap="xs">
              <Group justify="space-between">
                <Text fw={600} size="sm">
                  {i + 1}. {label(type)}
                </Text>
                {!readOnly && (
                  <Group gap={4}>
                    <ActionIcon variant="subtle" aria-label={`Move module ${i + 1} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                      ↑
                    </ActionIcon>
                    <ActionIcon variant="subtle" aria-label={`Move module ${i + 1} down`} disabled={i === modules.length - 1} onClick={() => move(i, 1)}>
                      ↓
                    </ActionIcon>
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove module ${i + 1}`} onClick={() => setModules(modules.filter((_, j) => j !== i))}>
                      ×
                    </ActionIcon>
                  </Group>
                )}
              </Group>
              {[...spec.texts, ...(spec.longText ? [spec.longText] : [])].map((key) => (
                <Group key={key} grow wrap="wrap">
                  {locales.map((loc) => {
                    const texts = (m[key] ?? {}) as Record<string, string>;
                    const Input = key === spec.longText ? Textarea : TextInput;
                    // An empty locale is not left blank on the page: it shows another locale's text. Say so.
                    const shownInstead = shownInsteadOf(texts, loc, defaultLocale);
                    return (
                      <Input
                        key={loc}
                        size="xs"
                        description={shownInstead ? `Empty: the page shows the ${shownInstead} text here` : undefined}
                        label={`${label(key)} (${loc})`}
                        readOnly={readOnly}
                        value={texts[loc] ?? ''}
                        onChange={(e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setField(i, key, { ...texts, [loc]: e.currentTarget.value })}
                      />
                    );
                  })}
                </Group>
              ))}
              {spec.urls.map((key) => {
                const value = (m[key] as string | null | undefined) ?? '';
                const isImage = IMAGE_FIELDS.has(key);
                return (
                  <Group key={key} align="flex-end" gap="xs" wrap="nowrap">
                    {isImage && value && <Image src={value} alt={`${label(key)} of module ${i + 1}`} w={48} h={48} fit="cover" radius="sm" data-testid={`image-preview-${i}-${key}`} />}
                    <TextInput
                      style={{ flex: 1 }}
                      size="xs"
                      label={label(key)}
                      description={isImage ? 'Pick from the media library, or an https address (e.g. https://cdn.example.com/cover.jpg)' : 'An https address (e.g. https://shop.example.com/vinyl)'}
                      readOnly={readOnly}
                      value={value}
                      onChange={(e) => setField(i, key, e.currentTarget.value || null)}
                    />
                    {isImage && !readOnly && (
                      <Button size="xs" variant="default" onClick={() => setPicking({ index: i, key })} aria-label={`Pick ${label(key).toLowerCase()} of module ${i + 1} from the media library`}>
                        Pick…
                      </Button>
                    )}
                  </Group>
                );
              })}
              {type === 'player' && (
                <>
                  {!readOnly && (
                    <Select
                      size="xs"
                      searchable
                      label={`Add music to module ${i + 1} from the catalog`}
                      description="Search a track, an album or a playlist by name or artist; an album or playlist adds all its tracks"
                      placeholder="e.g. Tidal Lights"
                      data={PLAYER_PICKS.map((p) => ({ value: p.value, label: p.label }))}
                      value={null}
                      onChange={(v) => {
                        const pick = PLAYER_PICKS.find((p) => p.value === v);
                        if (pick) setField(i, 'spotify_track_ids', addPickedTracks((m.spotify_track_ids as string[]) ?? [], pick));
                      }}
                    />
                  )}
                  <TagsInput
                    size="xs"
                    label="Tracks (Spotify track ids)"
                    description="Filled by the catalog search above; or paste a Spotify track id (22 letters and digits, e.g. 4uLU6hMCjMI75M1A2tKUQC) and press Enter. At most 50."
                    readOnly={readOnly}
                    value={(m.spotify_track_ids as string[]) ?? []}
                    onChange={(v) => setField(i, 'spotify_track_ids', v)}
                  />
                  {((m.spotify_track_ids as string[]) ?? []).length > 0 && (
                    <Text size="xs" c="dimmed" data-testid={`player-tracks-${i}`}>
                      {((m.spotify_track_ids as string[]) ?? []).map((id) => trackName(id) ?? id).join(' · ')}
                    </Text>
                  )}
                </>
              )}
              {err && (
                <Text c="red" size="xs" role="alert">
                  {err}
                </Text>
              )}
            </Stack>
          </Paper>
        );
      })}
      <Modal opened={picking !== null} onClose={() => setPicking(null)} title="Pick an image" size="xl">
        {picking && (
          <MediaLibrary
            onPick={(url) => {
              setField(picking.index, picking.key, url);
              setPicking(null);
            }}
          />
        )}
      </Modal>
      {!readOnly && (
        <Select
          w={240}
          size="xs"
          label="Add a module"
          placeholder="Choose a type"
          data={PAGE_MODULE_TYPES.map((t) => ({ value: t, label: label(t) }))}
          value={null}
          onChange={(t) => t && setModules([...modules, newModule(t as PageModuleType, modules.length + 1)])}
        />
      )}
      {!readOnly && modules.length > 0 && (
        <Button size="xs" variant="subtle" w="fit-content" onClick={() => setModules([])}>
          Remove all modules
        </Button>
      )}
    </Stack>
  );
}
