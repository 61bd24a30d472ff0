import { useState } from 'react';
import { useParams } from 'react-router';
import { Button, Card, Grid, Group, NumberInput, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FakeChatBody, PostScheduledMessageBody } from '@fanfare/protocol';
import { notifyDone, notifyError } from '../../ui/notify.ts';
import { Empty, QueryState } from '../../ui/States.tsx';
import { ConfirmButton } from '../dashboard/ConfirmButton.tsx';
import { PartyScreenHeader } from '../dashboard/PartyNav.tsx';
import { usePartyLiveApi, type PartyLiveApi } from '../dashboard/liveApi.ts';

/** A local date-time input value (`YYYY-MM-DDTHH:mm`) a minute from now. */
const inAMinute = () => {
  const d = new Date(Date.now() + 60_000);
  d.setSeconds(0, 0);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

function ScheduledMessages({ api, id }: { api: PartyLiveApi; id: string }) {
  const qc = useQueryClient();
  const key = ['party', id, 'schedule'];
  const list = useQuery({ queryKey: key, queryFn: () => api.scheduled(id) });
  const [text, setText] = useState('');
  const [at, setAt] = useState(inAMinute);
  const [every, setEvery] = useState<number>(0);
  const [error, setError] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: async () => {
      // 0 means once (the spec sends 0 as null); the protocol schema normalises it.
      const parsed = PostScheduledMessageBody.safeParse({ text, post_at: new Date(at).toISOString(), recurring_interval: every || null });
      if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      return api.schedule(id, parsed.data);
    },
    onSuccess: () => {
      setText('');
      setError(null);
      notifyDone('Message scheduled');
      void qc.invalidateQueries({ queryKey: key });
    },
    onError: (e) => setError(e instanceof Error ? e.message : String(e)),
  });
  const remove = useMutation({
    mutationFn: (scheduleId: string) => api.unschedule(id, scheduleId),
    onSuccess: () => void qc.invalidateQueries({ queryKey: key }),
    onError: (e) => notifyError(e, 'Could not remove'),
  });
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">
        Scheduled messages
      </Title>
      <form onSubmit={(e) => (e.preventDefault(), add.mutate())}>
        <Stack gap="xs">
          <Textarea label="Message" value={text} onChange={(e) => setText(e.currentTarget.value)} required autosize minRows={2} />
          <Group grow align="flex-start">
            <TextInput type="datetime-local" label="Post at" value={at} onChange={(e) => setAt(e.currentTarget.value)} required />
            <NumberInput label="Repeat every (seconds, 0 = once)" value={every} min={0} onChange={(v) => setEvery(Number(v) || 0)} />
          </Group>
          {error && (
            <Text c="red.8" size="sm" role="alert">
              {error}
            </Text>
          )}
          <Button type="submit" loading={add.isPending}>
            Schedule
          </Button>
        </Stack>
      </form>
      <QueryState query={list}>
        {(data) =>
          data.items.length === 0 ? (
            <Empty title="Nothing scheduled" />
          ) : (
            <Table mt="md" data-testid="schedule-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Message</Table.Th>
                  <Table.Th>At</Table.Th>
                  <Table.Th>Repeats</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((m) => (
                  <Table.Tr key={m.id}>
                    <Table.Td>{m.text}</Table.Td>
                    <Table.Td>{new Date(m.post_at).toLocaleString()}</Table.Td>
                    <Table.Td>{m.recurring_interval ? `every ${m.recurring_interval} s` : 'once'}</Table.Td>
                    <Table.Td>
                      <Button size="compact-xs" variant="subtle" color="red" onClick={() => remove.mutate(m.id)} aria-label={`Remove scheduled message ${m.text}`}>
                        Remove
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </QueryState>
    </Card>
  );
}

function FakeTraffic({ api, id }: { api: PartyLiveApi; id: string }) {
  const [rate, setRate] = useState(10);
  const [seconds, setSeconds] = useState(60);
  const [running, setRunning] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: () => {
      const parsed = FakeChatBody.safeParse({ messages_per_second: rate, stop_after: seconds });
      if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      return api.startFake(id, parsed.data);
    },
    onSuccess: () => {
      setRunning(`${rate} messages/s for ${seconds} s`);
      notifyDone('Fake chat traffic started');
    },
    onError: (e) => notifyError(e, 'Could not start'),
  });
  const stop = useMutation({
    mutationFn: () => api.stopFake(id),
    onSuccess: () => {
      setRunning(null);
      notifyDone('Fake chat traffic stopped');
    },
    onError: (e) => notifyError(e, 'Could not stop'),
  });
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">
        Fake chat traffic
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        Real messages through the fans' path, for rehearsals and load checks.
      </Text>
      <Group grow align="flex-start">
        <NumberInput label="Messages per second" value={rate} min={1} max={1000} onChange={(v) => setRate(Number(v) || 0)} />
        <NumberInput label="Stop after (seconds)" value={seconds} min={1} max={3600} onChange={(v) => setSeconds(Number(v) || 0)} />
      </Group>
      <Group mt="sm">
        <Button onClick={() => start.mutate()} loading={start.isPending}>
          Start traffic
        </Button>
        <Button variant="default" onClick={() => stop.mutate()} loading={stop.isPending}>
          Stop traffic
        </Button>
        {running && (
          <Text size="sm" role="status">
            Running: {running}
          </Text>
        )}
      </Group>
    </Card>
  );
}

/** Party operations (spec 6 CMS actions): scheduled messages, fake traffic, wiping chat or users. */
export default function OperationsScreen() {
  const { id = '' } = useParams();
  const api = usePartyLiveApi();
  return (
    <Stack gap="md">
      <PartyScreenHeader title="Operations" id={id} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <ScheduledMessages api={api} id={id} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            <FakeTraffic api={api} id={id} />
            <Card withBorder>
              <Title order={3} size="h4" mb="sm">
                Danger zone
              </Title>
              <Group>
                <ConfirmButton
                  color="red"
                  variant="light"
                  label="Delete all chat"
                  title="Delete every chat message?"
                  message="Every message of this party is deleted for good, on every fan's screen."
                  confirmLabel="Delete all chat"
                  onConfirm={() => api.clearChat(id).then(() => notifyDone('Chat deleted'), (e: unknown) => notifyError(e, 'Could not delete'))}
                />
                <ConfirmButton
                  color="red"
                  label="Delete all users"
                  title="Remove every fan from this party?"
                  message="Every signup of this party is removed and every fan is disconnected. They must sign up again."
                  confirmLabel="Delete all users"
                  onConfirm={() => api.deleteUsers(id).then(() => notifyDone('Users removed'), (e: unknown) => notifyError(e, 'Could not delete'))}
                />
              </Group>
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
