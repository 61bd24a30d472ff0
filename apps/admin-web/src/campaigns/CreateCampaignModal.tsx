import { useNavigate } from 'react-router';
import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { CreateCampaignBody, Slug } from '@fanfare/protocol';
import { useApi } from '../api/context.tsx';
import { zodResolver } from '../forms/zodResolver.ts';
import { notifyError } from '../ui/notify.ts';
import { useApps, useCreateCampaign } from './queries.ts';
import { slugify } from './timing.ts';

/** Checks as you type whether the app already has this slug (`GET .../exists`). */
export function useSlugTaken(app: string | null, slug: string, ownSlug?: string) {
  const api = useApi();
  const [debounced] = useDebouncedValue(slug, 300);
  // The campaign's own slug is never "taken" (a cached answer for it from before it existed is ignored).
  const enabled = Boolean(app) && Slug.safeParse(debounced).success && debounced !== ownSlug;
  const q = useQuery({
    queryKey: ['slug-exists', app, debounced],
    queryFn: () => api.campaigns.slugExists(app!, debounced),
    enabled,
  });
  return { taken: enabled && q.data?.exists === true && debounced === slug, checking: q.isFetching || debounced !== slug };
}

export function CreateCampaignModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const apps = useApps();
  const create = useCreateCampaign();
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { app_id: '', name: '', slug: '' },
    validate: zodResolver(CreateCampaignBody),
    onValuesChange: (values, previous) => {
      // The slug follows the name until the editor types one of their own.
      if (values.name !== previous.name && (previous.slug === '' || previous.slug === slugify(previous.name))) form.setFieldValue('slug', slugify(values.name));
    },
  });
  const { taken } = useSlugTaken(form.values.app_id || null, form.values.slug);
  const submit = form.onSubmit((values) => {
    if (taken) return;
    create.mutate(values, {
      onSuccess: (c) => {
        form.reset();
        onClose();
        void navigate(`/campaigns/${c.id}`);
      },
      onError: (e) => notifyError(e, 'Could not create the campaign'),
    });
  });
  return (
    <Modal opened={opened} onClose={onClose} title="New campaign">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Select
            label="App"
            required
            data={(apps.data?.items ?? []).map((a) => ({ value: a.id, label: a.title || a.name }))}
            nothingFoundMessage={apps.isPending ? 'Loading…' : 'No app yet: create one under Apps'}
            {...form.getInputProps('app_id')}
          />
          <TextInput label="Name" required {...form.getInputProps('name')} />
          <TextInput
            label="Slug"
            description="The page's address: lower-case letters, digits and dashes"
            required
            {...form.getInputProps('slug')}
            error={form.errors.slug ?? (taken ? 'This app already has a campaign with this slug' : undefined)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending} disabled={taken}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
