import '@mantine/charts/styles.css';
import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { AreaChart, BarChart } from '@mantine/charts';
import { Alert, Badge, Button, Card, Grid, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type PartyStatsEvent, type QuestionStats } from '@fanfare/protocol';
import { notifyDone, notifyError } from '../../ui/notify.ts';
import { Loading } from '../../ui/States.tsx';
import { useNow } from '../../ui/useNow.ts';
import { ConfirmButton } from './ConfirmButton.tsx';
import { LiveChat } from './LiveChat.tsx';
import { PartyScreenHeader } from './PartyNav.tsx';
import { PostPanel } from './PostPanel.tsx';
import { SourcesPanel } from './SourcesPanel.tsx';
import { usePartyLiveApi, type PartyLiveApi } from './liveApi.ts';
import { useDashboardStats } from './useDashboardStats.ts';
import { messagesPerMinute } from './statsState.ts';

const clock = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const mmss = (ms: number) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}`;

function Figure({ label, value, testId }: { label: string; value: number | string; testId: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={testId} aria-live="off">
        {value}
      </Text>
    </Card>
  );
}

/** The playing track and its position, advanced locally from the server's status between events. */
function NowPlaying({ stats, offsetMs }: { stats: PartyStatsEvent; offsetMs: number }) {
  const now = useNow(500) + offsetMs;
  const s = stats.status;
  if (stats.ends_at && Date.parse(stats.ends_at) <= now) return <Badge color="gray.7">Ended</Badge>;
  if (!s) return <Text c="dimmed">Not started yet.</Text>;
  const position = Math.min(s.track.duration_ms, s.is_paused ? s.progress_ms : s.progress_ms + (now - s.timestamp_ms));
  return (
    <Stack gap={4} data-testid="now-playing">
      <Group gap="xs">
        <Text fw={600}>{s.track.name}</Text>
        <Text c="dimmed" size="sm">
          {s.track.artists.join(', ')}
        </Text>
        {s.is_paused && <Badge color="dark">Paused</Badge>}
      </Group>
      <Progress value={(100 * position) / Math.max(1, s.track.duration_ms)} aria-label={`Track progress ${mmss(position)} of ${mmss(s.track.duration_ms)}`} />
      <Text size="xs" c="dimmed">
        {mmss(position)} / {mmss(s.track.duration_ms)}
      </Text>
    </Stack>
  );
}

function QuestionChart({ q }: { q: QuestionStats }) {
  const total = q.results.reduce((a, b) => a + b, 0);
  return (
    <Card withBorder padding="sm" data-testid="question-card">
      <Group justify="space-between" mb={4}>
        <Text fw={600} size="sm">
          {q.kind === 'quiz' ? 'Quiz' : 'Poll'}: {q.question}
        </Text>
        <Badge color={q.closed ? 'gray.7' : 'teal.9'}>{q.closed ? 'closed' : 'open'}</Badge>
      </Group>
      <Text size="xs" c="dimmed" data-testid="question-total">
        {total} answers
      </Text>
      <BarChart
        h={Math.max(90, 34 * q.options.length)}
        data={q.options.map((o, i) => ({ option: `${i + 1}. ${o}${q.correct_answer === i ? ' ✓' : ''}`, answers: q.results[i] ?? 0 }))}
        dataKey="option"
        orientation="vertical"
        yAxisProps={{ width: 140 }}
        series={[{ name: 'answers', color: 'indigo.6' }]}
        withTooltip={false}
      />
    </Card>
  );
}

function Controls({ api, id, stats }: { api: PartyLiveApi; id: string; stats: PartyStatsEvent | null }) {
  const now = useNow(5_000);
  const [busy, setBusy] = useState<string | null>(null);
  const act = async (name: string, run: () => Promise<unknown>, done: string) => {
    setBusy(name);
    try {
      await run();
      notifyDone(done);
    } catch (e) {
      notifyError(e, `Could not ${name} the party`);
    } finally {
      setBusy(null);
    }
  };
  const ended = Boolean(stats?.ends_at && Date.parse(stats.ends_at) <= now);
  const playing = Boolean(stats?.status && !stats.status.is_paused);
  return (
    <Group gap="xs">
      <Button onClick={() => act('start', () => api.start(id), 'Party started')} loading={busy === 'start'} disabled={ended || playing}>
        Start
      </Button>
      <Button variant="default" onClick={() => act('stop', () => api.stop(id), 'Party paused')} loading={busy === 'stop'} disabled={ended || !playing}>
        Stop
      </Button>
      <ConfirmButton
        color="red"
        variant="light"
        label="End party"
        disabled={ended}
        title="End the party now?"
        message="Every fan is sent to the end screen and the party cannot be started again."
        confirmLabel="End party"
        onConfirm={() => act('end', () => api.end(id), 'Party ended')}
      />
    </Group>
  );
}

/** The live host dashboard of a party (issue 14): figures pushed by the server over the party socket. */
export default function DashboardScreen() {
  const { id = '' } = useParams();
  const api = usePartyLiveApi();
  const [url] = useState(() => api.socketUrl(id));
  const { connection, stats, chat, skipped, receivedAt } = useDashboardStats(url);
  const offsetMs = stats && receivedAt ? stats.server_time_ms - receivedAt : 0;

  return (
    <Stack gap="md">
      <PartyScreenHeader title="Live dashboard" id={id} />
      <Group justify="space-between">
        <Controls api={api} id={id} stats={stats} />
        <Group gap="xs">
          <Badge color={connection === 'live' ? 'teal.9' : connection === 'refused' ? 'red.9' : 'dark'} data-testid="connection">
            {connection}
          </Badge>
          {receivedAt && (
            <Text size="xs" c="dimmed">
              updated {clock(receivedAt)}
            </Text>
          )}
        </Group>
      </Group>
      {connection === 'refused' && (
        <Alert color="red" role="alert" title="No live figures">
          The party refused the dashboard (no such party, or your account may not watch it).
        </Alert>
      )}
      {!stats ? (
        connection !== 'refused' && <Loading label="Connecting to the party…" />
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
            <Figure label="Listeners now" value={stats.listeners} testId="stat-listeners" />
            <Figure label="Messages / min" value={stats.messages_last_minute} testId="stat-rate" />
            <Figure label="Messages" value={stats.totals.messages} testId="stat-messages" />
            <Figure label="Votes" value={stats.totals.votes} testId="stat-votes" />
            <Figure label="Answers" value={stats.totals.answers} testId="stat-answers" />
            <Figure label="Joins / leaves" value={`${stats.totals.joins} / ${stats.totals.leaves}`} testId="stat-joins" />
          </SimpleGrid>
          {stats.listeners_scope === 'node' && (
            <Text size="xs" c="dimmed">
              Listeners, joins and leaves are counted on the server node this dashboard is connected to.
            </Text>
          )}
          <Panel title="Now playing">
            <NowPlaying stats={stats} offsetMs={offsetMs} />
          </Panel>
          <Panel title="What listeners hear">
            <SourcesPanel sources={stats.sources} />
          </Panel>
          <Grid>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Panel title="Listeners, joins and leaves">
                <AreaChart
                  h={200}
                  data={stats.buckets.map((b) => ({ time: clock(b.start_ms), listeners: b.listeners, joins: b.joins, leaves: b.leaves }))}
                  dataKey="time"
                  series={[
                    { name: 'listeners', color: 'indigo.7' },
                    { name: 'joins', color: 'teal.7' },
                    { name: 'leaves', color: 'red.7' },
                  ]}
                  curveType="linear"
                  withDots={false}
                  withLegend
                  data-testid="chart-listeners"
                />
              </Panel>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Panel title="Chat messages per minute">
                <BarChart
                  h={200}
                  data={messagesPerMinute(stats.buckets).map((b) => ({ time: clock(b.start_ms), 'messages/min': b.perMinute }))}
                  dataKey="time"
                  series={[{ name: 'messages/min', color: 'grape.7' }]}
                  data-testid="chart-chat"
                />
              </Panel>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Panel title="Votes per track">
                <BarChart
                  h={Math.max(160, 28 * stats.votes.length)}
                  data={stats.votes.map((v) => ({ track: v.name, votes: v.votes }))}
                  dataKey="track"
                  orientation="vertical"
                  yAxisProps={{ width: 150 }}
                  series={[{ name: 'votes', color: 'teal.7' }]}
                  data-testid="chart-votes"
                />
              </Panel>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Panel title="Polls and quizzes">
                {stats.questions.length === 0 ? (
                  <Text c="dimmed" size="sm">
                    No poll or quiz yet.
                  </Text>
                ) : (
                  <Stack gap="xs">
                    {stats.questions.slice(0, 3).map((q) => (
                      <QuestionChart key={q.id} q={q} />
                    ))}
                  </Stack>
                )}
              </Panel>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 7 }}>
              <Card withBorder>
                <LiveChat
                  messages={chat}
                  skipped={skipped}
                  blocked={stats.blocked}
                  onBlock={(userId) => api.block(id, userId)}
                  onUnblock={(userId) => api.unblock(id, userId)}
                  onDelete={(messageId) => api.deleteMessage(id, messageId)}
                />
              </Card>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5 }}>
              <Panel title="Post to the party">
                <PostPanel api={api} partyId={id} />
              </Panel>
            </Grid.Col>
          </Grid>
        </>
      )}
    </Stack>
  );
}

/** A bordered card under a heading: every block of the dashboard. */
function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}
