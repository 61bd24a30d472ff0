import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Box, Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { PARTY_PREVIEW_SCREENS, type Party, type PartyPreviewScreen, type PartyTrack } from '@fanfare/protocol';
import { usePartyUrl } from '../../api/context.tsx';
import { partyPreviewFrameUrl } from '../partyApi.ts';
import { usePartyPreviewBridge } from './previewBridge.ts';

const SCREEN_LABEL: Record<PartyPreviewScreen, string> = { pre: 'Pre', waiting: 'Waiting', player: 'Player', end: 'End' };
/** How long the party app may take to say `ready` before the editor says it does not answer. */
const READY_TIMEOUT_MS = 20_000;

/** The two widths the editor previews (a phone and a desktop), and the frame height at each. */
const WIDTHS = { '390': 780, '1280': 800 } as const;
type Width = keyof typeof WIDTHS;

/**
 * The party app in a frame, in preview mode, showing the chosen screen with the form's unsaved
 * settings. A 1280 px preview is scaled down to fit the column; the app lays itself out for 1280.
 */
export function PartyPreview({ partyId, party, tracks, onWide }: { partyId: string; party: Party; tracks: PartyTrack[]; onWide?: (wide: boolean) => void }) {
  const partyUrl = usePartyUrl();
  // The frame's messages are checked against the party app's origin (its URL may carry a path).
  const origin = new URL(partyUrl).origin;
  const [screen, setScreen] = useState<PartyPreviewScreen>('waiting');
  const [width, setWidth] = useState<Width>('390');
  // The address is fixed per party: screens change over the bridge, without reloading the app.
  const [src] = useState(() => partyPreviewFrameUrl(partyUrl, partyId, 'waiting'));
  const [attempt, setAttempt] = useState(0);
  const [late, setLate] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  const bridge = usePartyPreviewBridge(frame, origin, { screen, party, tracks });
  useEffect(() => {
    if (bridge.ready) return;
    const timer = setTimeout(() => setLate(true), READY_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [bridge.ready, attempt]);
  const { ref: box, width: boxWidth } = useElementSize();
  const px = Number(width);
  const height = WIDTHS[width];
  const scale = boxWidth > 0 ? Math.min(1, boxWidth / px) : 1;
  const status = !bridge.ready
    ? 'Loading the party app…'
    : bridge.invalid
      ? 'Some values are not valid yet: the preview shows the last valid ones'
      : bridge.rendered < bridge.sent
        ? 'Updating…'
        : 'Shows your unsaved changes';
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="preview-title">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id="preview-title">
            Preview
          </Title>
          <Anchor href={`${partyUrl}/p/${encodeURIComponent(partyId)}/?admin=true#/${screen}`} target="_blank" rel="noreferrer" size="sm">
            Open saved party in a new tab
          </Anchor>
        </Group>
        <Group gap="xs" wrap="wrap">
          <SegmentedControl
            aria-label="Screen"
            size="xs"
            value={screen}
            onChange={(v) => setScreen(v as PartyPreviewScreen)}
            data={PARTY_PREVIEW_SCREENS.map((s) => ({ value: s, label: SCREEN_LABEL[s] }))}
          />
          <SegmentedControl
            aria-label="Width"
            size="xs"
            value={width}
            onChange={(v) => {
              setWidth(v as Width);
              onWide?.(v === '1280');
            }}
            data={[
              { value: '390', label: '390 px' },
              { value: '1280', label: '1280 px' },
            ]}
          />
        </Group>
        <Text size="xs" c="dimmed" role="status" aria-live="polite" data-testid="preview-status" data-rendered={bridge.rendered} data-sent={bridge.sent}>
          {status}
        </Text>
        {late && !bridge.ready && (
          <Alert color="red" title="The party app does not answer" role="alert">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">Is the party server running at {origin}? The preview needs its app.</Text>
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => {
                  setLate(false);
                  setAttempt((n) => n + 1);
                }}
              >
                Try again
              </Button>
            </Stack>
          </Alert>
        )}
        <Box ref={box} w="100%">
          <Box w={px * scale} h={height * scale} style={{ overflow: 'hidden', margin: '0 auto', borderRadius: 6, boxShadow: '0 0 0 1px var(--mantine-color-default-border)' }}>
            <iframe
              key={attempt}
              ref={frame}
              title={`Preview of party ${partyId}: ${SCREEN_LABEL[screen]} screen at ${px} px`}
              src={src}
              width={px}
              height={height}
              style={{ border: 0, display: 'block', transform: `scale(${scale})`, transformOrigin: 'top left' }}
            />
          </Box>
        </Box>
      </Stack>
    </Paper>
  );
}
