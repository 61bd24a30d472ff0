import type { PlayerStatus } from '@fanfare/protocol';

/**
 * The position to play now (spec 4 "Play starts the current track at progress_ms", corrected by
 * the clock offset): progress + (server now - status time), clamped to the track.
 */
export function positionNowMs(status: PlayerStatus, clientNowMs: number, clockOffsetMs: number): number {
  if (status.is_paused) return status.progress_ms;
  const serverNow = clientNowMs + clockOffsetMs;
  const pos = status.progress_ms + Math.max(0, serverNow - status.timestamp_ms);
  return Math.min(pos, status.track.duration_ms);
}

/** mm:ss for a duration. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

/** Days, hours, minutes, seconds until a time, for the countdowns. */
export function countdownParts(targetMs: number, nowMs: number): { days: number; hours: number; minutes: number; seconds: number; done: boolean } {
  const left = Math.max(0, targetMs - nowMs);
  const s = Math.floor(left / 1000);
  return { days: Math.floor(s / 86400), hours: Math.floor((s % 86400) / 3600), minutes: Math.floor((s % 3600) / 60), seconds: s % 60, done: left === 0 };
}
