import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Modal, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreateAppBody, type CmsApp } from '@fanfare/protocol';
import { useApi, useCan } from '../api/context.tsx';
import { useApps } from '../campaigns/queries.ts';
import { zodResolver } from '../forms/zodResolver.ts';
import { notifyDone, notifyError } from '../ui/notify.ts';
import { Empty, Failed, Loading } from '../ui/States.tsx';
import { missingKeys } from './missingKeys.ts';
import { FOCUSABLE_SCROLL } from '../ui/focusableScroll.ts';

/** Apps (families of campaign pages): list, create, reload their configuration, and their translations. */
export default function AppsScreen() {
  const apps = useApps();
  const canCreate = useCan('apps.create');
  const [creating, create] = useDisclosure(false);
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Apps & translations</Title>
        {canCreate && <Button onClick={create.open}>New app</Button>}
      </Group>
      {apps.isPending ? (
        <Loading label="Loading apps…" />
      ) : apps.isError ? (
        <Failed error={apps.error} retry={() => void apps.refetch()} />
      ) : apps.data.items.length === 0 ? (
        <Empty title="No apps yet" action={canCreate ? <Button onClick={create.open}>Create the first app</Button> : undefined}>
          An app groups campaign pages that share configuration and translations.
        </Empty>
      ) : (
        <Table.ScrollContainer minWidth={560} {...FOCUSABLE_SCROLL}>
          <Table striped aria-label="Apps">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Title</Table.Th>
                <Table.Th>Config reloaded</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {apps.data.items.map((a) => (
                <AppRow key={a.id} app={a} onTranslations={() => setSelected(a.name)} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {apps.data && apps.data.items.length > 0 && (
        <Select
          label="Translations of"
          placeholder="Choose an app"
          data={apps.data.items.map((a) => ({ value: a.name, label: a.title || a.name }))}
          value={selected}
          onChange={setSelected}
          w={{ base: '100%', sm: 260 }}
        />
      )}
      {selected && <Translations app={selected} />}
      <CreateAppModal opened={creating} onClose={create.close} />
    </Stack>
  );
}

function AppRow({ app, onTranslations }: { app: CmsApp; onTranslations: () => void }) {
  const api = useApi();
  const qc = useQueryClient();
  const canReload = useCan('apps.reload');
  const reload = useMutation({
    mutationFn: () => api.apps.reload(app.id),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['apps'] });
      void qc.invalidateQueries({ queryKey: ['translations', app.name] });
      notifyDone(`Reloaded the configuration of ${app.name}`);
    },
    onError: (e) => notifyError(e, 'Could not reload'),
  });
  return (
    <Table.Tr>
      <Table.Td>{app.name}</Table.Td>
      <Table.Td>{app.title || '—'}</Table.Td>
      <Table.Td>{app.config_reloaded_at ? new Date(app.config_reloaded_at).toLocaleString() : 'never'}</Table.Td>
      <Table.Td>
        <Group gap="xs">
          {canReload && (
            <Button size="xs" variant="default" loading={reload.isPending} onClick={() => reload.mutate()} aria-label={`Reload config of ${app.name}`}>
              Reload config
            </Button>
          )}
          <Button size="xs" variant="default" onClick={onTranslations} aria-label={`Translations of ${app.name}`}>
            Translations
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** An app's locales (with plural forms) and its messages per locale, with the keys each locale misses. */
function Translations({ app }: { app: string }) {
  const api = useApi();
  const t = useQuery({ queryKey: ['translations', app], queryFn: () => api.apps.translations(app) });
  if (t.isPending) return <Loading label="Loading translations…" />;
  if (t.isError) return <Failed error={t.error} retry={() => void t.refetch()} />;
  const { keys, missing } = missingKeys(t.data);
  const codes = t.data.locales.length ? t.data.locales.map((l) => l.code) : t.data.items.map((i) => i.locale);
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={3} size="h4">
          Translations of {app}
        </Title>
        <Group gap="xs">
          {t.data.locales.map((l) => (
            <Badge key={l.code} variant="outline" color="dark" tt="none">
              {l.code}
              {l.code === t.data.default_locale ? ' (default)' : ''}: {l.pluralForm}
            </Badge>
          ))}
        </Group>
        {codes.map((c) => (
          <Text key={c} size="sm" data-testid={`missing-${c}`}>
            {c}: {missing[c]?.length ? `${missing[c]!.length} missing (${missing[c]!.slice(0, 8).join(', ')}${missing[c]!.length > 8 ? ', …' : ''})` : 'complete'}
          </Text>
        ))}
        {keys.length === 0 ? (
          <Empty title="No messages yet">Messages come from the app's configuration file; reload it after a change.</Empty>
        ) : (
          <Table.ScrollContainer minWidth={500} {...FOCUSABLE_SCROLL}>
            <Table aria-label={`Messages of ${app}`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Key</Table.Th>
                  {codes.map((c) => (
                    <Table.Th key={c}>{c}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {keys.map((k) => (
                  <Table.Tr key={k}>
                    <Table.Td>
                      <code>{k}</code>
                    </Table.Td>
                    {codes.map((c) => {
                      const v = t.data.items.find((i) => i.locale === c)?.messages[k];
                      return <Table.Td key={c}>{v ?? <Text c="red.9" size="sm">missing</Text>}</Table.Td>;
                    })}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}

interface NewApp {
  name: string;
  title: string;
  default_locale: string;
  locales: { code: string; pluralForm: string }[];
}

/** Creating an app with its locales; plural forms are checked by the protocol's rule (spec 5). */
function CreateAppModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const api = useApi();
  const qc = useQueryClient();
  const toBody = (v: NewApp) => ({ name: v.name, title: v.title || undefined, config: { i18n: { default_locale: v.default_locale, locales: v.locales, translations: [] } } });
  const form = useForm<NewApp>({
    initialValues: {
      name: '',
      title: '',
      default_locale: 'de',
      locales: [
        { code: 'de', pluralForm: 'nplurals=2; plural=(n != 1);' },
        { code: 'en', pluralForm: 'nplurals=2; plural=(n != 1);' },
      ],
    },
    validate: (v) => {
      // The errors come keyed by the wire's paths (config.i18n.locales.0.pluralForm): map them to the form's.
      const raw = zodResolver(CreateAppBody, toBody)(v);
      return Object.fromEntries(Object.entries(raw).map(([k, m]) => [k.replace(/^config\.i18n\./, ''), m]));
    },
  });
  const create = useMutation({
    mutationFn: (v: NewApp) => api.apps.create(toBody(v)),
    onSuccess: (a) => {
      void qc.invalidateQueries({ queryKey: ['apps'] });
      notifyDone(`Created ${a.name}`);
      form.reset();
      onClose();
    },
    onError: (e) => notifyError(e, 'Could not create the app'),
  });
  return (
    <Modal opened={opened} onClose={onClose} title="New app" size="lg">
      <form onSubmit={form.onSubmit((v) => create.mutate(v))} noValidate>
        <Stack>
          <TextInput label="Name" description="Part of every page address: lower-case letters, digits and dashes" required {...form.getInputProps('name')} />
          <TextInput label="Title" {...form.getInputProps('title')} />
          <Text size="sm" fw={600}>
            Locales
          </Text>
          {form.values.locales.map((_, i) => (
            <Group key={i} align="flex-start" wrap="nowrap" gap="xs">
              <TextInput label="Code" size="xs" w={90} {...form.getInputProps(`locales.${i}.code`)} />
              <TextInput label="Plural form" size="xs" flex={1} {...form.getInputProps(`locales.${i}.pluralForm`)} />
              <ActionIcon mt={24} variant="subtle" color="red" aria-label={`Remove locale ${i + 1}`} onClick={() => form.removeListItem('locales', i)}>
                ×
              </ActionIcon>
            </Group>
          ))}
          <Button size="xs" variant="default" w="fit-content" onClick={() => form.insertListItem('locales', { code: '', pluralForm: 'nplurals=2; plural=(n != 1);' })}>
            Add locale
          </Button>
          <TextInput label="Default locale" size="xs" w={120} {...form.getInputProps('default_locale')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create app
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
