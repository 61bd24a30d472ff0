/** The editor's field groups; each reads and writes the campaign draft through the Mantine form. */
import { ActionIcon, Button, Checkbox, Group, MultiSelect, Paper, Select, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { CAMPAIGN_SERVICES, NEWSLETTER_SIGNUP_MODES, type NewsletterEntry } from '@fanfare/protocol';
import type { DraftForm } from './useDraftForm.ts';

export type { DraftForm };

/** `datetime-local` shows local time; the wire carries ISO 8601 with an offset. */
const toLocalInput = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const fromLocalInput = (v: string) => (v ? new Date(v).toISOString() : null);

/** Help and an example for each tracking field. */
const TAG_MANAGER_HELP: Record<string, string> = {
  artist: 'The artist as your analytics name it, e.g. Neon Harbour',
  genre: 'e.g. Pop',
  division: 'The label division, e.g. Island',
  party_id: 'The listening party this page promotes (its id in Parties), e.g. demo',
};

export function GeneralFields({ form, readOnly, slugTaken, countries }: { form: DraftForm; readOnly: boolean; slugTaken: boolean; countries: { value: string; label: string }[] }) {
  const slug = form.getInputProps('slug');
  return (
    <Stack>
      <TextInput label="Name" required readOnly={readOnly} {...form.getInputProps('name')} />
      <TextInput label="Slug" description="The last part of the page address, lower case with dashes, e.g. new-album-2027" required readOnly={readOnly} {...slug} error={slug.error ?? (slugTaken ? 'This app already has a campaign with this slug' : undefined)} />
      <Group grow wrap="wrap">
        <TextInput
          type="datetime-local"
          label="Starts"
          readOnly={readOnly}
          value={toLocalInput(form.values.starts_at)}
          onChange={(e) => form.setFieldValue('starts_at', fromLocalInput(e.currentTarget.value))}
          error={form.errors.starts_at}
        />
        <TextInput
          type="datetime-local"
          label="Ends"
          readOnly={readOnly}
          value={toLocalInput(form.values.ends_at)}
          onChange={(e) => form.setFieldValue('ends_at', fromLocalInput(e.currentTarget.value))}
          error={form.errors.ends_at}
        />
      </Group>
      <Checkbox.Group label="Streaming services" {...form.getInputProps('enabled_services')}>
        <Group mt={4}>
          {CAMPAIGN_SERVICES.map((s) => (
            <Checkbox key={s} value={s} label={s === 'apple' ? 'Apple Music' : 'Spotify'} disabled={readOnly} />
          ))}
        </Group>
      </Checkbox.Group>
      <MultiSelect
        label="Participating countries"
        description="Empty: every country"
        searchable
        readOnly={readOnly}
        data={countries}
        value={(form.values.data.participating_countries ?? []) as string[]}
        onChange={(v) => form.setFieldValue('data', { ...form.values.data, participating_countries: v })}
        error={form.errors['data.participating_countries']}
      />
      <TextInput label="WordPress URL" description="The label site's page that embeds this campaign, if any, e.g. https://label.example/new-album" readOnly={readOnly} {...form.getInputProps('wp_url')} value={form.values.wp_url ?? ''} />
      <Switch label="Test campaign (not for fans)" disabled={readOnly} {...form.getInputProps('test', { type: 'checkbox' })} />
    </Stack>
  );
}

export function MetaFields({ form, readOnly }: { form: DraftForm; readOnly: boolean }) {
  const tags = Object.entries(form.values.meta_tags);
  const setTags = (entries: [string, string][]) => form.setFieldValue('meta_tags', Object.fromEntries(entries));
  return (
    <Stack>
      <Text fw={600} size="sm">
        Meta tags
      </Text>
      {tags.length === 0 && (
        <Text size="sm" c="dimmed">
          No meta tags. The page uses the campaign name as its title.
        </Text>
      )}
      {tags.map(([k, v], i) => (
        <Group key={i} gap="xs" wrap="nowrap" align="flex-end">
          <TextInput label="Name" description="e.g. og:title" size="xs" readOnly={readOnly} value={k} onChange={(e) => setTags(tags.map((t, j) => (j === i ? [e.currentTarget.value, t[1]] : t)))} />
          <TextInput label="Content" description="e.g. New album out now" size="xs" flex={1} readOnly={readOnly} value={v} onChange={(e) => setTags(tags.map((t, j) => (j === i ? [t[0], e.currentTarget.value] : t)))} />
          {!readOnly && (
            <ActionIcon variant="subtle" color="red" aria-label={`Remove meta tag ${k}`} onClick={() => setTags(tags.filter((_, j) => j !== i))}>
              ×
            </ActionIcon>
          )}
        </Group>
      ))}
      {form.errors.meta_tags && (
        <Text c="red" size="xs">
          {form.errors.meta_tags}
        </Text>
      )}
      {!readOnly && (
        <Button size="xs" variant="default" w="fit-content" onClick={() => setTags([...tags, [tags.some(([k]) => k === 'description') ? `tag-${tags.length + 1}` : 'description', '']])}>
          Add meta tag
        </Button>
      )}
      <Text fw={600} size="sm" mt="md">
        Tag manager
      </Text>
      <Group grow wrap="wrap">
        {(['artist', 'genre', 'division', 'party_id'] as const).map((k) => (
          <TextInput key={k} label={k === 'party_id' ? 'Party id' : k[0]!.toUpperCase() + k.slice(1)} description={TAG_MANAGER_HELP[k]} readOnly={readOnly} {...form.getInputProps(`tag_manager.${k}`)} value={form.values.tag_manager[k] ?? ''} />
        ))}
      </Group>
    </Stack>
  );
}

const blankNewsletter = (n: number): NewsletterEntry => ({ id: `newsletter-${n}`, enabled: true, signup_mode: 'optional', locales: { de: { addressbook_id: '', form_id: '', consent_text: '' } } });

export function NewsletterFields({ form, readOnly }: { form: DraftForm; readOnly: boolean }) {
  const list = form.values.newsletters;
  return (
    <Stack>
      {list.length === 0 && (
        <Text size="sm" c="dimmed">
          No newsletter. Add one to offer a signup on the page.
        </Text>
      )}
      {list.map((n, i) => (
        <Paper key={i} withBorder p="sm">
          <Stack gap="xs">
            {/* Fields wrap under each other on a phone rather than shrink until the mode is cut off. */}
            <Group wrap="wrap" align="flex-end">
              <TextInput label="Newsletter id" description="Your own short name for this list, used in exports, e.g. label-news" flex="1 1 160px" readOnly={readOnly} {...form.getInputProps(`newsletters.${i}.id`)} />
              <Select label="Signup mode" description="required: must tick to take part; optional: a choice; implicit: no box" flex="1 1 160px" readOnly={readOnly} data={[...NEWSLETTER_SIGNUP_MODES]} allowDeselect={false} {...form.getInputProps(`newsletters.${i}.signup_mode`)} />
              <Switch label="Enabled" disabled={readOnly} {...form.getInputProps(`newsletters.${i}.enabled`, { type: 'checkbox' })} />
            </Group>
            {Object.entries(n.locales).map(([code, l]) => (
              <Paper key={code} withBorder p="xs" bg="gray.0">
                <Group justify="space-between">
                  <Text size="sm" fw={600}>
                    Locale {code}
                  </Text>
                  {!readOnly && (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      onClick={() => {
                        const { [code]: _gone, ...rest } = n.locales;
                        form.setFieldValue(`newsletters.${i}.locales`, rest);
                      }}
                    >
                      Remove locale {code}
                    </Button>
                  )}
                </Group>
                <Group grow wrap="wrap">
                  <TextInput label="Address book id" description="The id of the mailing list in your e-mail tool (its address book), e.g. 4711" size="xs" readOnly={readOnly} {...form.getInputProps(`newsletters.${i}.locales.${code}.addressbook_id`)} />
                  <TextInput label="Form id" description="The signup form's id in your e-mail tool, e.g. 12" size="xs" readOnly={readOnly} {...form.getInputProps(`newsletters.${i}.locales.${code}.form_id`)} />
                </Group>
                <Textarea label="Consent text" description="Shown beside the tick box and stored with each signup as the proof of consent, e.g. Yes, send me news about the tour and new records. I can unsubscribe at any time." size="xs" autosize minRows={2} readOnly={readOnly} {...form.getInputProps(`newsletters.${i}.locales.${code}.consent_text`)} value={l.consent_text ?? ''} />
              </Paper>
            ))}
            {!readOnly && (
              <Group gap="xs">
                {['de', 'en'].filter((c) => !(c in n.locales)).map((c) => (
                  <Button key={c} size="compact-xs" variant="default" onClick={() => form.setFieldValue(`newsletters.${i}.locales.${c}`, { addressbook_id: '', form_id: '', consent_text: '' })}>
                    Add locale {c}
                  </Button>
                ))}
                <Button size="compact-xs" variant="subtle" color="red" onClick={() => form.removeListItem('newsletters', i)}>
                  Remove newsletter
                </Button>
              </Group>
            )}
          </Stack>
        </Paper>
      ))}
      {!readOnly && (
        <Button size="xs" variant="default" w="fit-content" onClick={() => form.insertListItem('newsletters', blankNewsletter(list.length + 1))}>
          Add newsletter
        </Button>
      )}
    </Stack>
  );
}

export function TokenGateFields({ form, readOnly, campaignUrl }: { form: DraftForm; readOnly: boolean; campaignUrl: string }) {
  return (
    <Stack>
      <Switch label="Token gate enabled" disabled={readOnly} {...form.getInputProps('token_gate.enabled', { type: 'checkbox' })} />
      <TextInput label="Product id" description="The product whose access codes open the gate (codes are uploaded per product), e.g. vinyl-2027" readOnly={readOnly} {...form.getInputProps('token_gate.product_id')} value={form.values.token_gate.product_id ?? ''} />
      <Switch label="This page is the gate page (asks for a code)" disabled={readOnly} {...form.getInputProps('is_token_gate', { type: 'checkbox' })} />
      <TextInput label="Gated campaign URL" description="Where the gate page sends a fan with access, e.g. https://cms.example/c/app/bonus" readOnly={readOnly} {...form.getInputProps('token_gated_campaign_url')} value={form.values.token_gated_campaign_url ?? ''} />
      <TextInput label="Gate URL" description="Where a fan without access is sent, e.g. https://cms.example/c/app/gate" readOnly={readOnly} {...form.getInputProps('token_gate_url')} value={form.values.token_gate_url ?? ''} />
      <Text size="xs" c="dimmed">
        This page: {campaignUrl}
      </Text>
    </Stack>
  );
}
