import '@mantine/charts/styles.css';
import { useState } from 'react';
import { BarChart, LineChart } from '@mantine/charts';
import { Badge, Button, Group, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FUNNEL_STEPS, type Campaign, type FunnelBucket, type FunnelCounts } from '@fanfare/protocol';
import { useApi } from '../../api/context.tsx';
import { FOCUSABLE_SCROLL } from '../../ui/focusableScroll.ts';
import { notifyError } from '../../ui/notify.ts';
import { Empty, Failed, Loading } from '../../ui/States.tsx';
import { confidenceText, percent, seriesRows, STEP_LABELS } from './funnelView.ts';

function CountsTable({ caption, keyLabel, rows, testId }: { caption: string; keyLabel: string; rows: { key: string; label: string; counts: FunnelCounts }[]; testId: string }) {
  return (
    <Table.ScrollContainer minWidth={520} {...FOCUSABLE_SCROLL}>
      <Table striped data-testid={testId}>
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{keyLabel}</Table.Th>
            {FUNNEL_STEPS.map((k) => (
              <Table.Th scope="col" key={k} ta="right">
                {STEP_LABELS[k]}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.key} data-row={r.label}>
              <Table.Th scope="row">{r.label}</Table.Th>
              {FUNNEL_STEPS.map((k) => (
                <Table.Td key={k} ta="right" data-step={k}>
                  {r.counts[k]}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A campaign's funnel: steps, channels, territories, over time, the A/B comparison and a CSV export. */
export default function FunnelPanel({ campaign }: { campaign: Pick<Campaign, 'id' | 'slug'> }) {
  const api = useApi();
  const [bucket, setBucket] = useState<FunnelBucket>('day');
  const [exporting, setExporting] = useState(false);
  const report = useQuery({ queryKey: ['funnel', campaign.id, bucket], queryFn: () => api.funnel.report(campaign.id, { bucket }) });
  if (report.isPending) return <Loading label="Loading the funnel…" />;
  if (report.isError) return <Failed error={report.error} retry={() => void report.refetch()} />;
  const f = report.data;
  if (Object.values(f.totals).every((n) => n === 0)) {
    return <Empty title="No visits recorded yet">Once the published page has visitors, their visits, logins, signups and pre-saves show here.</Empty>;
  }
  const download = async () => {
    setExporting(true);
    try {
      const url = URL.createObjectURL(await api.funnel.csv(campaign.id, { bucket }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `funnel-${campaign.slug}.csv`;
      a.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      notifyError(e, 'Could not export the funnel');
    } finally {
      setExporting(false);
    }
  };
  const [a, b] = f.variants;
  return (
    <Stack gap="lg" data-testid="funnel-panel">
      <Group justify="space-between">
        <Title order={3} size="h4">
          Funnel
        </Title>
        <Button variant="default" onClick={() => void download()} loading={exporting}>
          Export CSV
        </Button>
      </Group>
      <BarChart
        h={220}
        data={f.steps.map((s) => ({ step: STEP_LABELS[s.kind], count: s.count }))}
        dataKey="step"
        series={[{ name: 'count', label: 'Events', color: 'indigo.8' }]}
        // The table below holds the same numbers: the chart is decoration for screen readers and
        // takes no keyboard focus (recharts' accessibility layer would make the hidden chart focusable).
        barChartProps={{ accessibilityLayer: false }}
        aria-hidden
      />
      <Table data-testid="funnel-steps">
        <Table.Caption>Funnel steps</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Step</Table.Th>
            <Table.Th scope="col" ta="right">Count</Table.Th>
            <Table.Th scope="col" ta="right">Of previous</Table.Th>
            <Table.Th scope="col" ta="right">Of visits</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {f.steps.map((s, i) => (
            <Table.Tr key={s.kind} data-step={s.kind}>
              <Table.Th scope="row">{STEP_LABELS[s.kind]}</Table.Th>
              <Table.Td ta="right" data-testid={`step-${s.kind}`}>
                {s.count}
              </Table.Td>
              <Table.Td ta="right">{i === 0 ? '–' : percent(s.rate_from_previous)}</Table.Td>
              <Table.Td ta="right">{percent(s.rate_from_visits, f.totals.visit > 0)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <CountsTable caption="Per channel" keyLabel="Channel" testId="funnel-channels" rows={f.channels.map((c) => ({ key: `${c.channel}|${c.utm_campaign}|${c.referrer_host}`, label: c.utm_campaign ? `${c.channel} (${c.utm_campaign})` : c.channel, counts: c.counts }))} />
      <CountsTable caption="Per territory" keyLabel="Territory" testId="funnel-territories" rows={f.territories.map((t) => ({ key: t.territory, label: t.territory || 'unknown', counts: t.counts }))} />
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={4} size="h5">
            Over time
          </Title>
          <SegmentedControl
            aria-label="Time bucket"
            size="xs"
            value={bucket}
            onChange={(v) => setBucket(v as FunnelBucket)}
            data={[
              { value: 'hour', label: 'Hours' },
              { value: 'day', label: 'Days' },
              { value: 'week', label: 'Weeks' },
            ]}
          />
        </Group>
        <LineChart
          h={220}
          data={seriesRows(f)}
          dataKey="bucket"
          series={[
            { name: 'Visits', color: 'indigo.8' },
            { name: 'Signups', color: 'teal.9' },
            { name: 'Pre-saves', color: 'grape.8' },
          ]}
          curveType="linear"
          withLegend
        />
      </Stack>
      <Stack gap="xs" data-testid="funnel-variants">
        <Group gap="xs">
          <Title order={4} size="h5">
            Variants
          </Title>
          <Badge variant="outline" color={f.ab_test_enabled ? 'teal.9' : 'gray.7'}>
            {f.ab_test_enabled ? 'A/B test running' : 'A/B test off'}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          Variant A: {a?.counts.visit ?? 0} visits · Variant B: {b?.counts.visit ?? 0} visits. Confidence from a two-proportion z-test of each step's share of visits.
        </Text>
        <Table.ScrollContainer minWidth={520} {...FOCUSABLE_SCROLL}>
          <Table>
            <Table.Caption>Variant B against A</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Step</Table.Th>
                <Table.Th scope="col" ta="right">A</Table.Th>
                <Table.Th scope="col" ta="right">B</Table.Th>
                <Table.Th scope="col" ta="right">Difference</Table.Th>
                <Table.Th scope="col">Confidence</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {f.comparison.map((c) => (
                <Table.Tr key={c.kind} data-step={c.kind}>
                  <Table.Th scope="row">{STEP_LABELS[c.kind]}</Table.Th>
                  <Table.Td ta="right">{percent(c.rate_a, (a?.counts.visit ?? 0) > 0)}</Table.Td>
                  <Table.Td ta="right">{percent(c.rate_b, (b?.counts.visit ?? 0) > 0)}</Table.Td>
                  <Table.Td ta="right">{c.confidence === null ? '–' : `${c.difference >= 0 ? '+' : ''}${(c.difference * 100).toFixed(1)} pts`}</Table.Td>
                  <Table.Td>{confidenceText(c.confidence)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Stack>
  );
}
