import { ActionIcon, Button, Fieldset, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { LOGIN_SERVICES, type LoginService } from '@fanfare/protocol';
import type { PartyFormApi } from './formApi.ts';
import { DEMO_ARTISTS } from './catalog.ts';

const LABEL: Record<LoginService, string> = { spotify: 'Spotify', apple: 'Apple Music' };

/** What fans are invited to follow, per service (spec 3: album, playlist, artists; empty ids are dropped). */
export function FollowSection({ form }: { form: PartyFormApi }) {
  const follow = form.getValues().follow;
  return (
    <Stack gap="md">
      <Title order={2} size="h4">
        Follow
      </Title>
      <Text size="sm" c="dimmed">
        Shown on the End screen. Empty ids are left out when saving.
      </Text>
      {LOGIN_SERVICES.map((service) => {
        const artists = follow[service].artists;
        const unused = DEMO_ARTISTS.filter((a) => !artists.includes(a.ids[service]));
        return (
          <Fieldset key={service} legend={LABEL[service]}>
            <Stack gap="xs">
              <Group grow wrap="wrap">
                <TextInput label={`${LABEL[service]} album id`} {...form.getInputProps(`follow.${service}.album`)} />
                <TextInput label={`${LABEL[service]} playlist id`} {...form.getInputProps(`follow.${service}.playlist`)} />
              </Group>
              {artists.map((_, i) => (
                <Group key={i} gap="xs" align="flex-end" wrap="nowrap">
                  <TextInput label={`${LABEL[service]} artist ${i + 1} id`} style={{ flex: 1 }} {...form.getInputProps(`follow.${service}.artists.${i}`)} />
                  <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove ${LABEL[service]} artist ${i + 1}`} onClick={() => form.removeListItem(`follow.${service}.artists`, i)}>
                    ✕
                  </ActionIcon>
                </Group>
              ))}
              <Group gap="xs" wrap="wrap">
                <Button size="xs" variant="light" onClick={() => form.insertListItem(`follow.${service}.artists`, '')}>
                  Add artist
                </Button>
                {unused.map((a) => (
                  <Button key={a.ids[service]} size="xs" variant="default" onClick={() => form.insertListItem(`follow.${service}.artists`, a.ids[service])}>
                    + {a.name} (demo)
                  </Button>
                ))}
              </Group>
            </Stack>
          </Fieldset>
        );
      })}
    </Stack>
  );
}
