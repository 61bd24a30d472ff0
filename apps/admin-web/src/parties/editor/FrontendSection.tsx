import { ActionIcon, Button, Fieldset, Group, MultiSelect, Paper, Select, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { END_PAGE_MODULES, FAQ_MATCH_ALL, FAQ_PAGES, PLAYER_SERVICES, WAITING_PAGE_MODULES } from '@fanfare/protocol';
import type { PartyFormApi } from './formApi.ts';
import { ImageField } from './ImageField.tsx';

const MODULE_LABEL: Record<string, string> = { countdown: 'Countdown', tracks: 'Track list', newsletter: 'Newsletter', faq: 'FAQ button', thanks: 'Thank-you text', follow: 'Follow' };
const PAGE_OPTIONS = [{ value: FAQ_MATCH_ALL, label: 'All pages' }, ...FAQ_PAGES.map((p) => ({ value: p, label: p }))];
const SERVICE_OPTIONS = [{ value: FAQ_MATCH_ALL, label: 'All services' }, ...PLAYER_SERVICES.map((s) => ({ value: s, label: s }))];

function FaqEntryEditor({ form, index }: { form: PartyFormApi; index: number }) {
  const entry = form.getValues().faq[index]!;
  const n = index + 1;
  return (
    <Fieldset legend={`FAQ entry ${n}`}>
      <Stack gap="xs">
        <TextInput label={`Question ${n}`} required {...form.getInputProps(`faq.${index}.question`)} />
        <Textarea label={`Answer ${n} (HTML)`} description="Links, lists and emphasis are kept; scripts and styles are removed by the server." autosize minRows={2} maxRows={8} {...form.getInputProps(`faq.${index}.answer`)} />
        <ImageField label={`Image ${n}`} description="Optional image shown with the answer" {...form.getInputProps(`faq.${index}.image`)} />
        <Text size="sm" fw={500}>
          Shown on
        </Text>
        {entry.locations.length === 0 && (
          <Text size="sm" c="dimmed">
            No filter: shown everywhere.
          </Text>
        )}
        {entry.locations.map((_, li) => (
          <Group key={li} gap="xs" wrap="nowrap" align="flex-end">
            <Select label={`Page (filter ${li + 1})`} data={PAGE_OPTIONS} allowDeselect={false} {...form.getInputProps(`faq.${index}.locations.${li}.page`)} style={{ flex: 1 }} />
            <Select label={`Service (filter ${li + 1})`} data={SERVICE_OPTIONS} allowDeselect={false} {...form.getInputProps(`faq.${index}.locations.${li}.service`)} style={{ flex: 1 }} />
            <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove filter ${li + 1} of entry ${n}`} onClick={() => form.removeListItem(`faq.${index}.locations`, li)}>
              ✕
            </ActionIcon>
          </Group>
        ))}
        <Group gap="xs" justify="space-between">
          <Button size="xs" variant="light" onClick={() => form.insertListItem(`faq.${index}.locations`, { page: FAQ_MATCH_ALL, service: FAQ_MATCH_ALL })}>
            Add filter
          </Button>
          <Button size="xs" variant="subtle" color="red" onClick={() => form.removeListItem('faq', index)}>
            Remove entry {n}
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}

/** Frontend settings (spec 3): competition, page modules of Waiting and End, the FAQ. */
export function FrontendSection({ form }: { form: PartyFormApi }) {
  const faq = form.getValues().faq;
  return (
    <Stack gap="md">
      <Title order={2} size="h4">
        Pages and FAQ
      </Title>
      <Switch label="Competition" description="Shows the terms link and the competition checkbox at signup" {...form.getInputProps('competitionIsEnabled', { type: 'checkbox' })} />
      <MultiSelect
        label="Waiting room modules"
        description="In the order chosen"
        data={WAITING_PAGE_MODULES.map((m) => ({ value: m, label: MODULE_LABEL[m] ?? m }))}
        {...form.getInputProps('pageModulesWaiting')}
      />
      <MultiSelect label="End screen modules" description="In the order chosen" data={END_PAGE_MODULES.map((m) => ({ value: m, label: MODULE_LABEL[m] ?? m }))} {...form.getInputProps('pageModulesEnd')} />
      <Paper withBorder p="sm">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={3} size="h5">
              FAQ
            </Title>
            <Button size="xs" onClick={() => form.insertListItem('faq', { question: '', answer: '', image: '', locations: [] })}>
              Add FAQ entry
            </Button>
          </Group>
          {faq.length === 0 ? (
            <Text size="sm" c="dimmed">
              No FAQ entries: the FAQ modal stays empty.
            </Text>
          ) : (
            faq.map((_, i) => <FaqEntryEditor key={i} form={form} index={i} />)
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
