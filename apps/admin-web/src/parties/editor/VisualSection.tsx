import { Button, Chip, ColorInput, Group, MultiSelect, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { DEFAULT_STICKERS, FONTS, HEADER_ELEMENTS, STICKER_GLYPHS, type Font } from '@fanfare/protocol';
import { VISUAL_COLOR_KEYS, VISUAL_IMAGE_KEYS, type VisualColorKey, type VisualImageKey } from '../partyForm.ts';
import type { PartyFormApi } from './formApi.ts';
import { ImageField } from './ImageField.tsx';

const COLOR_LABEL: Record<VisualColorKey, string> = {
  primaryColor: 'Primary colour',
  backgroundColor: 'Background colour',
  artistHeaderBackground: 'Artist message header',
  artistProfileBackground: 'Artist profile',
  supportHeaderBackground: 'Support message header',
  supportProfileBackground: 'Support profile',
  userHeaderBackground: 'Fan message header',
  userProfileBackground: 'Fan profile',
  ownHeaderBackground: 'Own message header',
  ownProfileBackground: 'Own profile',
};
const IMAGE_LABEL: Record<VisualImageKey, string> = { musicImage: 'Music image', headerImage: 'Header image', radioImage: 'Radio image', phoneImage: 'Phone image', logoImage: 'Logo' };
const FONT_LABEL: Record<Font, string> = { mono: 'Roboto Mono', poppins: 'Poppins', playfair: 'Playfair Display', merriweather: 'Merriweather', rubik: 'Rubik' };
const ELEMENT_LABEL: Record<string, string> = { logo: 'Logo', title: 'Title', image: 'Header image' };

/** Visual settings (spec 3): colours, font, images, stickers, header elements, dark mode. */
export function VisualSection({ form }: { form: PartyFormApi }) {
  const visual = form.getValues().visual;
  return (
    <Stack gap="md">
      <Title order={2} size="h4">
        Look
      </Title>
      <Group wrap="wrap">
        <Switch label="Dark mode" description="White text; off: dark navy text" {...form.getInputProps('visual.dark', { type: 'checkbox' })} />
        <Switch label="Hide start page graphics" {...form.getInputProps('visual.hideStartPageGraphs', { type: 'checkbox' })} />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {VISUAL_COLOR_KEYS.map((k) => (
          <ColorInput key={k} label={COLOR_LABEL[k]} format="hex" placeholder="Default" eyeDropperButtonProps={{ 'aria-label': `Pick the ${COLOR_LABEL[k].toLowerCase()} from the screen` }} {...form.getInputProps(`visual.${k}`)} />
        ))}
      </SimpleGrid>
      <Select
        label="Font"
        data={[{ value: '', label: 'Default (Poppins)' }, ...FONTS.map((f) => ({ value: f, label: FONT_LABEL[f] }))]}
        allowDeselect={false}
        {...form.getInputProps('visual.font')}
      />
      <Title order={3} size="h5">
        Images
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {VISUAL_IMAGE_KEYS.map((k) => (
          <ImageField key={k} label={IMAGE_LABEL[k]} {...form.getInputProps(`visual.${k}`)} />
        ))}
      </SimpleGrid>
      <Title order={3} size="h5">
        Stickers
      </Title>
      <TextInput label="Sticker background" description="A CSS colour or background, e.g. #ffffff22" placeholder="Default" {...form.getInputProps('visual.stickerBackground')} />
      <Group justify="space-between">
        <Text size="sm">
          {visual.stickers.length === 0 ? 'No stickers: fans cannot send stickers.' : `${visual.stickers.length} of ${DEFAULT_STICKERS.length} stickers selected`}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={() => form.setFieldValue('visual.stickers', [...DEFAULT_STICKERS])}>
            Select all
          </Button>
          <Button size="xs" variant="subtle" onClick={() => form.setFieldValue('visual.stickers', [])}>
            None
          </Button>
        </Group>
      </Group>
      <Chip.Group multiple value={visual.stickers} onChange={(v) => form.setFieldValue('visual.stickers', DEFAULT_STICKERS.filter((s) => v.includes(s)))}>
        <Group gap={6} role="group" aria-label="Stickers">
          {DEFAULT_STICKERS.map((s) => (
            <Chip key={s} value={s} size="sm" aria-label={`Sticker ${s}`}>
              <span aria-hidden>{STICKER_GLYPHS[s]}</span> {s.replace('_', ' ')}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      <MultiSelect
        label="Header elements"
        description="In the order chosen; empty: logo, title, image"
        data={HEADER_ELEMENTS.map((e) => ({ value: e, label: ELEMENT_LABEL[e] ?? e }))}
        {...form.getInputProps('visual.headerElements')}
      />
    </Stack>
  );
}
