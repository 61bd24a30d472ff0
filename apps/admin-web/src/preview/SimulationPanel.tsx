import { Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import type { Campaign, CampaignSimulation } from '@fanfare/protocol';

export type SimulatedMoment = 'real' | 'before' | 'live' | 'ended';

export interface SimulationChoice {
  moment: SimulatedMoment;
  locale: string | null;
  country: string | null;
  gate: 'real' | 'granted' | 'blocked';
  login: 'real' | 'spotify' | 'apple' | 'out';
}

export const REAL: SimulationChoice = { moment: 'real', locale: null, country: null, gate: 'real', login: 'real' };

/**
 * The moment a simulation shows: a minute before the start, halfway through, a minute after the
 * end. It travels with `campaignInfo:v2` only, never to the server.
 */
export function toSimulation(choice: SimulationChoice, c: Pick<Campaign, 'starts_at' | 'ends_at'>, now = Date.now()): CampaignSimulation {
  const sim: CampaignSimulation = {};
  const start = c.starts_at ? Date.parse(c.starts_at) : null;
  const end = c.ends_at ? Date.parse(c.ends_at) : null;
  if (choice.moment === 'before') sim.now = new Date((start ?? now + 86_400_000) - 60_000).toISOString();
  if (choice.moment === 'live') sim.now = new Date(start !== null && end !== null ? (start + end) / 2 : start !== null ? start + 60_000 : end !== null ? end - 60_000 : now).toISOString();
  if (choice.moment === 'ended') sim.now = new Date((end ?? now) + 60_000).toISOString();
  if (choice.locale) sim.locale = choice.locale;
  if (choice.country) sim.country = choice.country;
  if (choice.gate !== 'real') sim.token_gate = choice.gate;
  if (choice.login !== 'real') sim.login = choice.login === 'out' ? null : choice.login;
  return sim;
}

export function SimulationPanel({
  value,
  onChange,
  timing,
  locales,
  countries,
}: {
  value: SimulationChoice;
  onChange: (v: SimulationChoice) => void;
  /** The draft's dates: without a start nothing comes "before" it, without an end nothing "ended". */
  timing: Pick<Campaign, 'starts_at' | 'ends_at'>;
  locales: string[];
  countries: { value: string; label: string }[];
}) {
  const set = <K extends keyof SimulationChoice>(k: K, v: SimulationChoice[K]) => onChange({ ...value, [k]: v });
  const missing = [!timing.starts_at && 'start', !timing.ends_at && 'end'].filter(Boolean).join(' or ');
  return (
    <Stack gap="xs" aria-label="Simulation" role="group">
      <Text size="sm" fw={600}>
        Simulate (never saved)
      </Text>
      <Group gap="xs" wrap="wrap">
        <SegmentedControl
          size="xs"
          aria-label="Moment"
          value={value.moment}
          onChange={(v) => set('moment', v as SimulatedMoment)}
          data={[
            { value: 'real', label: 'Now' },
            { value: 'before', label: 'Before start', disabled: !timing.starts_at },
            { value: 'live', label: 'Live' },
            { value: 'ended', label: 'Ended', disabled: !timing.ends_at },
          ]}
        />
        <SegmentedControl
          size="xs"
          aria-label="Token gate"
          value={value.gate}
          onChange={(v) => set('gate', v as SimulationChoice['gate'])}
          data={[
            { value: 'real', label: 'Gate as is' },
            { value: 'granted', label: 'Gate open' },
            { value: 'blocked', label: 'Gate closed' },
          ]}
        />
        <SegmentedControl
          size="xs"
          aria-label="Fan login"
          value={value.login}
          onChange={(v) => set('login', v as SimulationChoice['login'])}
          data={[
            { value: 'real', label: 'Login as is' },
            { value: 'out', label: 'Logged out' },
            { value: 'spotify', label: 'Spotify' },
            { value: 'apple', label: 'Apple' },
          ]}
        />
      </Group>
      {missing && (
        <Text size="xs" c="dimmed">
          The campaign has no {missing} date yet: set {timing.starts_at || timing.ends_at ? 'it' : 'them'} under General to preview{' '}
          {[!timing.starts_at && 'the time before the start', !timing.ends_at && 'the end'].filter(Boolean).join(' and ')}.
        </Text>
      )}
      <Group gap="xs" grow>
        <Select size="xs" label="Locale" placeholder="As the visitor's" clearable clearButtonProps={{ 'aria-label': 'Clear' }} data={locales} value={value.locale} onChange={(v) => set('locale', v)} />
        <Select size="xs" label="Country" placeholder="As the visitor's" clearable clearButtonProps={{ 'aria-label': 'Clear' }} searchable data={countries} value={value.country} onChange={(v) => set('country', v)} />
      </Group>
    </Stack>
  );
}
