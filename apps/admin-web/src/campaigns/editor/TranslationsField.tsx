import { useState } from 'react';
import { ActionIcon, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import type { I18nSettings } from '@fanfare/protocol';
import { missingKeys } from '../../apps/missingKeys.ts';
import type { DraftForm } from './useDraftForm.ts';
import { FOCUSABLE_SCROLL } from '../../ui/focusableScroll.ts';

const TWO_FORMS = 'nplurals=2; plural=(n != 1);';
const EMPTY: I18nSettings = { default_locale: 'de', locales: [{ code: 'de', pluralForm: TWO_FORMS }, { code: 'en', pluralForm: TWO_FORMS }], translations: [] };

/**
 * The campaign's own translations: locales with their plural forms (checked by the protocol's
 * numeric-rule pattern, spec 5), the default locale, and messages per locale with the missing
 * keys of each locale shown (a missing message shows its key on the page, spec 8).
 */
export function TranslationsField({ form, readOnly }: { form: DraftForm; readOnly: boolean }) {
  const i18n = form.values.i18n;
  const [newKey, setNewKey] = useState('');
  if (!i18n)
    return (
      <Stack align="flex-start">
        <Text size="sm" c="dimmed">
          This campaign uses its app&apos;s translations.
        </Text>
        {!readOnly && (
          <Button size="xs" variant="default" onClick={() => form.setFieldValue('i18n', EMPTY)}>
            Give it its own translations
          </Button>
        )}
      </Stack>
    );
  const locales = i18n.locales ?? [];
  const set = (next: Partial<I18nSettings>) => form.setFieldValue('i18n', { ...i18n, ...next });
  const messagesOf = (code: string) => i18n.translations.find((t) => t.locale === code)?.messages ?? {};
  const setMessage = (code: string, key: string, value: string) => {
    const others = i18n.translations.filter((t) => t.locale !== code);
    set({ translations: [...others, { locale: code, messages: { ...messagesOf(code), [key]: value } }] });
  };
  const { keys, missing } = missingKeys({ locales, items: i18n.translations });
  return (
    <Stack>
      <Text fw={600} size="sm">
        Locales and plural forms
      </Text>
      {locales.map((l, i) => (
        <Group key={i} align="flex-start" wrap="nowrap" gap="xs">
          <TextInput label="Code" size="xs" w={90} readOnly={readOnly} {...form.getInputProps(`i18n.locales.${i}.code`)} />
          <TextInput label="Plural form" size="xs" flex={1} readOnly={readOnly} {...form.getInputProps(`i18n.locales.${i}.pluralForm`)} />
          {!readOnly && (
            <ActionIcon mt={24} variant="subtle" color="red" aria-label={`Remove locale ${l.code || i + 1}`} onClick={() => set({ locales: locales.filter((_, j) => j !== i) })}>
              ×
            </ActionIcon>
          )}
        </Group>
      ))}
      {!readOnly && (
        <Button size="xs" variant="default" w="fit-content" onClick={() => set({ locales: [...locales, { code: '', pluralForm: TWO_FORMS }] })}>
          Add locale
        </Button>
      )}
      <Select
        label="Default locale"
        size="xs"
        w={160}
        readOnly={readOnly}
        data={locales.map((l) => l.code).filter(Boolean)}
        value={i18n.default_locale ?? null}
        onChange={(v) => set({ default_locale: v ?? undefined })}
        allowDeselect={false}
      />
      <Text fw={600} size="sm" mt="sm">
        Messages
      </Text>
      {locales.map((l) => (
        <Text key={l.code} size="xs" c={missing[l.code]?.length ? 'red.9' : 'dimmed'}>
          {l.code}: {missing[l.code]?.length ? `missing ${missing[l.code]!.join(', ')}` : 'complete'}
        </Text>
      ))}
      {keys.length > 0 && (
        <Table.ScrollContainer minWidth={420} {...FOCUSABLE_SCROLL}>
          <Table aria-label="Campaign messages">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Key</Table.Th>
                {locales.map((l) => (
                  <Table.Th key={l.code}>{l.code}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.map((k) => (
                <Table.Tr key={k}>
                  <Table.Td>
                    <code>{k}</code>
                  </Table.Td>
                  {locales.map((l) => (
                    <Table.Td key={l.code}>
                      <TextInput size="xs" aria-label={`${k} in ${l.code}`} readOnly={readOnly} value={messagesOf(l.code)[k] ?? ''} onChange={(e) => setMessage(l.code, k, e.currentTarget.value)} />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {!readOnly && (
        <Group align="flex-end" gap="xs">
          <TextInput size="xs" label="New message key" value={newKey} onChange={(e) => setNewKey(e.currentTarget.value)} />
          <Button
            size="xs"
            variant="default"
            disabled={!newKey.trim() || keys.includes(newKey.trim()) || !i18n.default_locale}
            onClick={() => {
              setMessage(i18n.default_locale!, newKey.trim(), '');
              setNewKey('');
            }}
          >
            Add key
          </Button>
        </Group>
      )}
      {form.errors.i18n && (
        <Text c="red.9" size="xs" role="alert">
          {form.errors.i18n}
        </Text>
      )}
    </Stack>
  );
}
