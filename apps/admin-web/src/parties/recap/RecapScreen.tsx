import '@mantine/charts/styles.css';
import { useState } from 'react';
import { useParams } from 'react-router';
import { BarChart } from '@mantine/charts';
import { Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PARTY_EXPORTS, type PartyExportKind, type PartyRecapResponse, type RecapPlay, type RecapSources, type SourceCounts } from '@fanfare/protocol';
import { notifyError } from '../../ui/notify.ts';
import { Empty, QueryState } from '../../ui/States.tsx';
import { PartyScreenHeader } from '../dashboard/PartyNav.tsx';
import { usePartyLiveApi } from '../dashboard/liveApi.ts';
import { countOf } from '../../ui/plural.ts';

const mmss = (ms: number) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}`;
const EXPORT_LABELS: Record<PartyExportKind, string> = { chat: 'Chat log', answers: 'Poll and quiz results', fans: 'Fans and competition consent' };

const SOURCE_LABELS: Record<keyof SourceCounts, string> = {
  provider: 'Own provider',
  label_stream: 'Label stream',
  preview: '30 s previews',
  none: 'No sound',
  unknown: 'Not reported',
};

/** Listeners by what they heard (their own provider, the label stream, previews), stored while the party ran. */
function SourcesCard({ sources }: { sources: RecapSources }) {
  const keys = Object.keys(SOURCE_LABELS) as (keyof SourceCounts)[];
  return (
    <Card withBorder data-testid="recap-sources">
      <Title order={3} size="h4" mb="xs">
        Listeners by source
      </Title>
      {sources.sampled_minutes === 0 ? (
        <Text size="sm">No listener counts were stored for this party.</Text>
      ) : (
        <Table.ScrollContainer minWidth={360}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Source</Table.Th>
                <Table.Th>Peak</Table.Th>
                <Table.Th>At the busiest minute{sources.busiest ? ` (${new Date(sources.busiest.minute).toLocaleTimeString()})` : ''}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.map((k) => (
                <Table.Tr key={k} data-testid={`recap-source-${k}`}>
                  <Table.Td>{SOURCE_LABELS[k]}</Table.Td>
                  <Table.Td>{sources.peak[k]}</Table.Td>
                  <Table.Td>{sources.busiest?.counts[k] ?? 0}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

/** One play of the timeline: its chat activity by position, and the votes and questions placed on it. */
function PlayRow({ play, recap }: { play: RecapPlay; recap: PartyRecapResponse }) {
  const chat = recap.chat.filter((c) => c.play === play.index);
  const votes = recap.votes.filter((v) => v.play === play.index);
  const questions = recap.questions.filter((q) => q.stamp.play === play.index);
  const messages = chat.reduce((n, c) => n + c.messages, 0);
  return (
    <Card withBorder data-testid="recap-play">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>
          {play.index + 1}. {play.name}
        </Text>
        <Text size="sm" c="dimmed">
          {new Date(play.started_at_ms).toLocaleTimeString()} · {mmss(play.duration_ms)}
        </Text>
      </Group>
      <Group gap="xs" mb="xs">
        <Badge variant="outline" color="indigo.9" data-testid="recap-play-messages">
          {countOf(messages, 'message', 'messages')}
        </Badge>
        <Badge variant="outline" color="teal.9" data-testid="recap-play-votes">
          {countOf(votes.reduce((n, v) => n + v.votes, 0), 'vote cast', 'votes cast')}
        </Badge>
        <Badge variant="outline" color="grape.9">
          {countOf(questions.length, 'poll or quiz', 'polls and quizzes')}
        </Badge>
      </Group>
      {chat.length > 0 && (
        <BarChart
          h={120}
          data={chat.map((c) => ({ position: mmss(c.position_ms), messages: c.messages }))}
          dataKey="position"
          series={[{ name: 'messages', color: 'grape.7' }]}
          withTooltip={false}
        />
      )}
      {votes.length > 0 && (
        <Text size="sm" mt="xs">
          Votes during this track: {votes.map((v) => `${v.name} (${v.votes})`).join(', ')}
        </Text>
      )}
      {questions.map((q) => (
        <Text size="sm" key={q.id} mt={4}>
          At {mmss(q.stamp.position_ms ?? 0)}: {q.kind} “{q.question}” — {q.options.map((o, i) => `${o}: ${q.results[i] ?? 0}`).join(', ')}
        </Text>
      ))}
    </Card>
  );
}

/** After the party (issue 14): the timeline of tracks with chat, votes and polls placed on it, and the CSV exports. */
export default function RecapScreen() {
  const { id = '' } = useParams();
  const api = usePartyLiveApi();
  const recap = useQuery({ queryKey: ['party', id, 'recap'], queryFn: () => api.recap(id) });
  const [downloading, setDownloading] = useState<PartyExportKind | null>(null);
  const download = async (kind: PartyExportKind) => {
    setDownloading(kind);
    try {
      await api.download(id, kind);
    } catch (e) {
      notifyError(e, 'Export failed');
    } finally {
      setDownloading(null);
    }
  };
  return (
    <Stack gap="md">
      <PartyScreenHeader title="Recap" id={id} />
      <Card withBorder>
        <Title order={3} size="h4" mb="xs">
          Exports (CSV)
        </Title>
        <Group>
          {PARTY_EXPORTS.map((kind) => (
            <Button key={kind} variant="light" loading={downloading === kind} onClick={() => void download(kind)}>
              {EXPORT_LABELS[kind]}
            </Button>
          ))}
        </Group>
      </Card>
      <QueryState query={recap}>
        {(r) => (
          <Stack gap="sm">
            <Group gap="lg">
              <Text size="sm">
                <b>{r.name}</b> {r.started_at ? `started ${new Date(r.started_at).toLocaleString()}` : 'never started'}
                {r.ends_at ? `, ended ${new Date(r.ends_at).toLocaleString()}` : ''}
              </Text>
              <Text size="sm" data-testid="recap-chat-total">
                {countOf(r.chat_total, 'message', 'messages')} ({r.chat_outside_plays} outside the tracks)
              </Text>
            </Group>
            <SourcesCard sources={r.sources} />
            {r.plays.length === 0 ? (
              <Empty title="No track played">The timeline fills once the party starts.</Empty>
            ) : (
              <>
                <Card withBorder>
                  <Title order={3} size="h4" mb="xs">
                    Chat per track
                  </Title>
                  <BarChart
                    h={180}
                    data={r.plays.map((p) => ({
                      track: `${p.index + 1}. ${p.name}`,
                      messages: r.chat.filter((c) => c.play === p.index).reduce((n, c) => n + c.messages, 0),
                      votes: r.votes.filter((v) => v.play === p.index).reduce((n, v) => n + v.votes, 0),
                    }))}
                    dataKey="track"
                    series={[
                      { name: 'messages', color: 'grape.7' },
                      { name: 'votes', color: 'teal.7' },
                    ]}
                    withLegend
                  />
                </Card>
                {r.plays.map((p) => (
                  <PlayRow key={p.index} play={p} recap={r} />
                ))}
              </>
            )}
            {r.questions.length > 0 && (
              <Table.ScrollContainer minWidth={480}>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Question</Table.Th>
                      <Table.Th>Asked during</Table.Th>
                      <Table.Th>Results</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {r.questions.map((q) => (
                      <Table.Tr key={q.id}>
                        <Table.Td>{q.question}</Table.Td>
                        <Table.Td>{q.stamp.play === null ? '—' : `${r.plays[q.stamp.play]?.name ?? ''} at ${mmss(q.stamp.position_ms ?? 0)}`}</Table.Td>
                        <Table.Td>{q.options.map((o, i) => `${o}: ${q.results[i] ?? 0}`).join(', ')}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
