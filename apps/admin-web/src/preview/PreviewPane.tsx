import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Group, Modal, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { CampaignTheme, type Campaign } from '@fanfare/protocol';
import { useQuery } from '@tanstack/react-query';
import { useApi, useSessionStore } from '../api/context.tsx';
import { MediaLibrary } from '../media/MediaLibrary.tsx';
import { useCountries } from '../campaigns/queries.ts';
import { createEditorBridge, type EditorBridge } from './editorBridge.ts';
import { previewable } from './previewable.ts';
import { REAL, SimulationPanel, toSimulation, type SimulationChoice } from './SimulationPanel.tsx';

type MediaRequest = { fieldId: string; requestId: string; targetWidth: number | null; targetHeight: number | null; currentFileUrl: string | null };

/** The page's address as visitors know it: without the preview link's token. */
function withoutPreviewToken(url: string): string {
  try {
    const u = new URL(url);
    u.searchParams.delete('preview');
    return u.href;
  } catch {
    return url;
  }
}

/** Preview widths: a phone and a desktop. */
const WIDTHS = { phone: 390, desktop: 1280 } as const;
const FRAME_HEIGHT = 636;

/**
 * The live preview: the campaign page in a frame, fed the unsaved campaign over the editor
 * bridge on every change, with a simulation (time, locale, country, gate, login) that never
 * reaches the server.
 */
export function PreviewPane({
  stored,
  draft,
  savedVersion,
  onMediaPicked,
}: {
  stored: Campaign;
  draft: Campaign;
  savedVersion: Campaign | null;
  /** The page's media request was answered with a file: set it in the draft (the page re-renders from the draft). */
  onMediaPicked?: (fieldId: string, url: string) => void;
}) {
  const session = useSessionStore();
  const api = useApi();
  // The page answers visitors 404 until published: the frame loads it through a preview link.
  const previewUrl = useQuery({ queryKey: ['preview-link', stored.id, stored.slug], queryFn: () => api.editorial.previewLink(stored.id), staleTime: 30 * 60_000 });
  const frame = useRef<HTMLIFrameElement>(null);
  const bridge = useRef<EditorBridge | null>(null);
  // On a phone the 1280 px page would be scaled to a stamp: start with the phone preview there.
  const [width, setWidth] = useState<keyof typeof WIDTHS>(() => (typeof window !== 'undefined' && window.innerWidth < 768 ? 'phone' : 'desktop'));
  const [choice, setChoice] = useState<SimulationChoice>(REAL);
  const [ready, setReady] = useState(0);
  const [media, setMedia] = useState<MediaRequest | null>(null);
  // The URL the page reports it shows (campaignUrl), e.g. after a gate redirect.
  const [pageUrl, setPageUrl] = useState<string | null>(null);
  const countries = useCountries();
  // The page keeps its real width (390 or 1280 CSS px) and is scaled down to fit the pane.
  const { ref: pane, width: paneWidth } = useElementSize<HTMLDivElement>();
  const scale = paneWidth > 0 ? Math.min(1, (paneWidth - 4) / WIDTHS[width]) : 1;
  const simulation = useMemo(() => toSimulation(choice, draft), [choice, draft]);
  const theme = useMemo(() => {
    const look = (draft.data as { page?: { look?: { font?: string; primary_color?: string } } }).page?.look;
    const parsed = CampaignTheme.safeParse({ font: look?.font, primary_color: look?.primary_color });
    return parsed.success ? parsed.data : {};
  }, [draft.data]);
  // The page refuses a campaign its schema refuses: it gets the draft without its incomplete parts.
  const shown = useMemo(() => previewable(draft), [draft]);
  const latest = useRef({ draft: shown.campaign, simulation, theme });
  useEffect(() => {
    latest.current = { draft: shown.campaign, simulation, theme };
  }, [shown, simulation, theme]);

  useEffect(() => {
    const origins = [...new Set([new URL(stored.url, window.location.href).origin, window.location.origin])];
    bridge.current = createEditorBridge({
      win: window,
      target: () => frame.current?.contentWindow ?? null,
      allowedOrigins: origins,
      onReady: (replyTo) => {
        const b = bridge.current!;
        b.sendToken(session.token(), replyTo);
        b.sendTheme(latest.current.theme);
        b.sendCampaignInfo(latest.current.draft, latest.current.simulation, replyTo);
        setReady((n) => n + 1);
      },
      onCampaignUrl: setPageUrl,
      onOpenMediaLibrary: (m) => setMedia({ fieldId: m.fieldId, requestId: m.requestId, targetWidth: m.targetWidth, targetHeight: m.targetHeight, currentFileUrl: m.currentFileUrl }),
      onRefused: (reason) => console.warn(`[preview] refused a frame: ${reason}`),
    });
    return () => bridge.current?.close();
  }, [stored.url, session]);

  // Every change of the draft or the simulation reaches the page before anything is saved.
  useEffect(() => {
    if (ready) bridge.current?.sendCampaignInfo(shown.campaign, simulation);
  }, [shown, simulation, ready]);
  useEffect(() => {
    if (ready) bridge.current?.sendTheme(theme);
  }, [theme, ready]);
  useEffect(() => {
    if (ready && savedVersion) bridge.current?.sendCampaignSaved(savedVersion);
  }, [savedVersion, ready]);

  const locales = draft.i18n?.locales?.map((l) => l.code) ?? ['de', 'en'];
  const pick = (url: string | null) => {
    if (!media) return;
    bridge.current?.sendMediaPicked(media.fieldId, url ? new URL(url, window.location.href).href : null, media.requestId);
    if (url) onMediaPicked?.(media.fieldId, url);
    setMedia(null);
  };

  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <Text fw={600} size="sm" id="preview-heading">
          Live preview
        </Text>
        <SegmentedControl
          size="xs"
          aria-label="Preview width"
          value={width}
          onChange={(v) => setWidth(v as keyof typeof WIDTHS)}
          data={[
            { value: 'phone', label: 'Phone 390 px' },
            { value: 'desktop', label: 'Desktop 1280 px' },
          ]}
        />
      </Group>
      {pageUrl && (
        <Text size="xs" c="dimmed" data-testid="preview-page-url">
          Showing{' '}
          <a href={pageUrl} target="_blank" rel="noreferrer" style={{ wordBreak: 'break-all' }}>
            {withoutPreviewToken(pageUrl)}
          </a>
        </Text>
      )}
      {shown.problems.length > 0 && (
        <Alert color="yellow" role="status" title="The preview leaves out what is incomplete" data-testid="preview-incomplete" styles={{ title: { color: 'var(--mantine-color-black)' } }}>
          <Text size="sm">
            {shown.problems.length === 1 ? 'One field needs' : `${shown.problems.length} fields need`} filling in; each is marked next to its field. Everything else shows as it will look.
          </Text>
        </Alert>
      )}
      <SimulationPanel value={choice} onChange={setChoice} timing={draft} locales={locales} countries={(countries.data?.items ?? []).map((c) => ({ value: c.code, label: c.name }))} />
      <Paper ref={pane} withBorder style={{ overflow: 'auto', background: 'var(--mantine-color-gray-1)' }} h={FRAME_HEIGHT + 4} tabIndex={0} aria-labelledby="preview-heading" component="section">
        <div style={{ width: WIDTHS[width] * scale, height: FRAME_HEIGHT, margin: '0 auto', overflow: 'hidden' }}>
          <div style={{ width: WIDTHS[width], transform: `scale(${scale})`, transformOrigin: 'top left' }}>
          <iframe
            ref={frame}
            title="Campaign page preview"
            src={previewUrl.data?.url}
            data-testid="preview-frame"
            data-width={WIDTHS[width]}
            style={{ width: WIDTHS[width], height: FRAME_HEIGHT / scale, border: 0, display: 'block', background: 'white' }}
          />
          </div>
        </div>
      </Paper>
      <Modal opened={media !== null} onClose={() => pick(null)} title="Pick an image for the page" size="xl">
        {media && (
          <Stack>
            {media.targetWidth && media.targetHeight && (
              <Text size="sm" c="dimmed">
                The page shows it at {media.targetWidth} × {media.targetHeight} px.
              </Text>
            )}
            <MediaLibrary onPick={(file) => pick(file)} target={media.targetWidth && media.targetHeight ? { width: media.targetWidth, height: media.targetHeight } : undefined} />
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
