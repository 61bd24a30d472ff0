// The sync bench's fan page (plain browser JS, no build). It does what the spec asks of a party
// client and nothing else: estimate the clock offset to the server with `time` frames, read the
// player status (REST, then the socket's track_change / party_started events), and play the
// track's hls_url at progress_ms + (serverNow - status.timestamp_ms). A small control loop keeps
// the element on that position: a seek for large errors, a playback-rate trim for small ones.
/* global Hls */
(function () {
  'use strict';
  const params = new URLSearchParams(location.search);
  const party = params.get('party');
  const token = params.get('token');
  const audio = document.getElementById('audio');
  const nowWall = () => performance.timeOrigin + performance.now();

  /** Errors above this are fixed by seeking; below, by trimming the playback rate. */
  const SEEK_ABOVE_MS = 250;
  /** No correction inside this band. */
  const DEADBAND_MS = 3;
  /** Rate trim: the error is removed over about this long. */
  const CORRECT_OVER_MS = 800;
  const MAX_TRIM = 0.1;

  const state = {
    offsetMs: 0,
    bestRttMs: Infinity,
    clockSamples: 0,
    status: null,
    trackUrl: null,
    hls: null,
    seeks: 0,
    waiting: 0,
    errors: [],
    playing: false,
    lastErrorMs: null,
  };
  window.__bench = state;

  const log = (m) => {
    document.getElementById('log').textContent += m + '\n';
  };

  /** Where the party timeline is now, by this client's estimate of the server clock. */
  function expectedMs(atWall) {
    const s = state.status;
    if (!s) return null;
    if (s.is_paused) return s.progress_ms;
    const serverNow = atWall + state.offsetMs;
    return Math.min(s.progress_ms + Math.max(0, serverNow - s.timestamp_ms), s.track.duration_ms);
  }

  // --- socket: heartbeat, clock offset, status events ---------------------------------------
  const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/api/parties/${encodeURIComponent(party)}?access_token=${encodeURIComponent(token)}`);
  const sent = new Map();
  ws.onmessage = (ev) => {
    const recv = nowWall();
    if (ev.data === 'ping') return ws.send('pong');
    if (typeof ev.data !== 'string' || ev.data[0] !== '[') return;
    for (const e of JSON.parse(ev.data)) {
      if (e.type === 'hello') startClockSync();
      else if (e.type === 'time') onTime(e, recv);
      else if ((e.type === 'track_change' || e.type === 'party_started' || e.type === 'party_stopped') && e.status) setStatus(e.status);
      else if (e.type === 'resync' && e.status) setStatus(e.status);
    }
  };
  ws.onclose = (ev) => state.errors.push(`socket closed ${ev.code}`);

  function sendTime() {
    if (ws.readyState !== WebSocket.OPEN) return;
    const t = nowWall();
    sent.set(t, true);
    ws.send(JSON.stringify({ type: 'time', client_time_ms: t }));
  }

  /** Offset from the sample with the smallest round trip (its midpoint is the tightest bound). */
  function onTime(e, recv) {
    if (!sent.delete(e.client_time_ms)) return;
    const rtt = recv - e.client_time_ms;
    state.clockSamples++;
    if (rtt <= state.bestRttMs) {
      state.bestRttMs = rtt;
      state.offsetMs = e.server_time_ms - (e.client_time_ms + recv) / 2;
    }
  }

  let clockTimer = null;
  function startClockSync() {
    if (clockTimer) return;
    // A burst to start with, then one every 2 s (at most 20 frames/s allowed by the server).
    let n = 0;
    const burst = setInterval(() => {
      sendTime();
      if (++n >= 10) clearInterval(burst);
    }, 100);
    clockTimer = setInterval(sendTime, 2000);
    fetchStatus();
  }

  async function fetchStatus() {
    const res = await fetch(`/api/parties/${encodeURIComponent(party)}/player/status`, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.json();
    if (body.status) setStatus(body.status);
    else state.errors.push('no player status (party not started?)');
  }

  // --- playback -------------------------------------------------------------------------------
  function setStatus(status) {
    state.status = status;
    const url = status.track.hls_url;
    if (!url) return state.errors.push(`track ${status.track.id} has no hls_url`);
    if (status.is_paused) return audio.pause();
    if (url !== state.trackUrl) load(new URL(url, location.href).toString());
    else correct(true);
  }

  function load(url) {
    state.trackUrl = url;
    if (state.hls) state.hls.destroy();
    const start = (expectedMs(nowWall()) ?? 0) / 1000;
    const hls = new Hls({ startPosition: start, enableWorker: true });
    state.hls = hls;
    hls.on(Hls.Events.ERROR, (_e, data) => {
      if (data.fatal) state.errors.push(`hls ${data.details}`);
    });
    hls.on(Hls.Events.MANIFEST_PARSED, () => {
      audio.play().catch((err) => state.errors.push(`play: ${err.message}`));
    });
    hls.loadSource(url);
    hls.attachMedia(audio);
  }

  audio.addEventListener('playing', () => {
    state.playing = true;
    correct(true);
  });
  audio.addEventListener('waiting', () => state.waiting++);

  /** One step of the control loop: seek when far off, otherwise trim the rate toward zero error. */
  function correct(allowSeek) {
    if (!state.status || state.status.is_paused || audio.paused || audio.readyState < 3) return;
    const t = nowWall();
    const err = audio.currentTime * 1000 - expectedMs(t);
    state.lastErrorMs = err;
    if (Math.abs(err) > SEEK_ABOVE_MS && allowSeek) {
      state.seeks++;
      audio.playbackRate = 1;
      audio.currentTime = expectedMs(nowWall()) / 1000;
      return;
    }
    if (Math.abs(err) <= DEADBAND_MS) {
      if (audio.playbackRate !== 1) audio.playbackRate = 1;
      return;
    }
    const trim = Math.max(-MAX_TRIM, Math.min(MAX_TRIM, err / CORRECT_OVER_MS));
    audio.playbackRate = 1 - trim;
  }
  setInterval(() => correct(true), 100);

  // --- sampling for the bench -----------------------------------------------------------------
  /**
   * Reads audio.currentTime at the wall-clock instants start + k * interval (the machine clock all
   * fans and the server share). Each read happens in its own task (Chromium keeps currentTime
   * stable within a task); the small lateness of the timer is taken out at the current rate.
   */
  window.__benchSample = (startWall, intervalMs, count) =>
    new Promise((resolve) => {
      const out = [];
      let k = 0;
      const next = () => {
        if (k >= count) return resolve(out);
        const target = startWall + k * intervalMs;
        setTimeout(() => {
          const t = nowWall();
          const pos = audio.currentTime * 1000;
          const rate = audio.paused ? 0 : audio.playbackRate;
          out.push({
            k,
            target_ms: target,
            late_ms: t - target,
            pos_ms: pos - (t - target) * rate,
            rate,
            paused: audio.paused,
            track_id: state.status ? state.status.track.id : null,
            own_error_ms: state.status ? pos - expectedMs(t) : null,
          });
          k++;
          next();
        }, Math.max(0, target - nowWall()));
      };
      next();
    });

  log(`fan page for party ${party}`);
})();
