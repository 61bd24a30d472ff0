#!/usr/bin/env bash
# generate-demo-catalog.sh: builds the audio and cover art of the demo catalog.
#
# Usage:  bash apps/server/scripts/generate-demo-catalog.sh
#
# Needs:  bash, node (>= 20) and Debian's ffmpeg/ffprobe (`apt-get install ffmpeg`). Only this
#         script needs ffmpeg; the server just serves the committed results, so `npm ci &&
#         npm start` works without it.
#
# Input:  apps/server/catalog/catalog.json (hand-written: artists, albums, playlists, tracks).
#         Set CATALOG_DIR to work on another catalog folder.
#
# Output, for every track (`audio` = folder name, equal to the track key):
#   apps/server/catalog/audio/<audio>/index.m3u8 + seg000.ts, seg001.ts, ...
#     VOD HLS, AAC-LC 64 kbit/s, mono, 44.1 kHz, 4 s segments. The signal is synthesised with
#     ffmpeg's `aevalsrc`: an eighth-note arpeggio over a four-chord progression, a soft sine pad
#     and a bass on beats 1 and 3, with a decaying envelope per note. Key (tonic and major/minor),
#     progression, arpeggio pattern, tempo, timbre and length (60 to 150 s) are derived from an
#     FNV-1a hash of the track key (no two tracks share tonic and mode while a mode has fewer than
#     12 tracks), so every track sounds different but the same on every run. Every section of
#     two bars has its own loudness (from 0 down to -18 dB, neighbours at least 7 dB apart, no
#     level repeats within 31 sections), so the playback position can be recognised from the
#     level. The last bar returns to the tonic and the last 2 s fade out.
#   The length of each result is read back with ffprobe (sum of the HLS segments, AAC priming
#   included) and written into catalog.json as `duration_ms` (rounded to the millisecond); all
#   other fields of catalog.json are kept (the file is rewritten as 2-space-indented JSON).
#
# And for every artist, album and playlist (`image`, relative to the catalog folder):
#   apps/server/catalog/covers/<key>.png: 300x300 PNG (< 60 KB), a two-colour gradient with a
#   pattern per kind (album: rings, artist: disc, playlist: stripes) and the name written with
#   drawtext in DejaVu Sans Bold when ffmpeg's drawtext and that font are available (otherwise
#   the pattern alone).
#
# Idempotent and deterministic: every output is rebuilt from scratch in a temporary folder and
# then moved into place (bit-exact muxing and encoding flags), and folders/PNGs of entries that
# are no longer in catalog.json are removed. Running it twice gives identical files.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CATALOG_DIR="$(cd "${CATALOG_DIR:-$SCRIPT_DIR/../catalog}" && pwd)"
CATALOG_JSON="$CATALOG_DIR/catalog.json"
FONT_FILE="${FONT_FILE:-/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf}"

for tool in node ffmpeg ffprobe; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "generate-demo-catalog: '$tool' is required (Debian: apt-get install ffmpeg nodejs)" >&2
    exit 1
  }
done
[[ -f "$CATALOG_JSON" ]] || { echo "generate-demo-catalog: $CATALOG_JSON not found" >&2; exit 1; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# drawtext needs ffmpeg built with libfreetype and a font file.
USE_TEXT=0
FILTERS="$(ffmpeg -hide_banner -filters 2>/dev/null || true)"
if [[ -f "$FONT_FILE" ]] && grep -qw drawtext <<<"$FILTERS"; then
  USE_TEXT=1
else
  echo "generate-demo-catalog: drawtext or $FONT_FILE unavailable, covers get patterns only" >&2
fi

# ---------------------------------------------------------------------------------------------
# Plan: node reads catalog.json and writes one job per line (tab separated):
#   track <TAB> audio-folder <TAB> seconds <TAB> aevalsrc expression <TAB> summary
#   cover <TAB> image path <TAB> filtergraph <TAB> text file (or -)
# ---------------------------------------------------------------------------------------------
PLAN_JS=$(cat <<'EOF'
const fs = require('node:fs');
const path = require('node:path');
const [catalogJson, workDir, useText, fontFile] = process.argv.slice(1);
const catalog = JSON.parse(fs.readFileSync(catalogJson, 'utf8'));
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function fnv1a(text) {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
// Deterministic small pseudo-random stream seeded by a string (xorshift32).
function rng(seedText) {
  let x = fnv1a(seedText) || 1;
  return (n) => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x % n;
  };
}
const num = (v) => Number(v.toFixed(6)).toString();

// Chords as [semitones above the tonic, third (3 = minor, 4 = major)]; every progression
// starts on the tonic chord.
const PROGRESSIONS = {
  major: [
    [[0, 4], [7, 4], [9, 3], [5, 4]],   // I  V  vi IV
    [[0, 4], [9, 3], [5, 4], [7, 4]],   // I  vi IV V
    [[0, 4], [5, 4], [9, 3], [7, 4]],   // I  IV vi V
    [[0, 4], [4, 3], [5, 4], [7, 4]],   // I  iii IV V
  ],
  minor: [
    [[0, 3], [8, 4], [3, 4], [10, 4]],  // i  VI III VII
    [[0, 3], [5, 3], [8, 4], [7, 4]],   // i  iv VI  V
    [[0, 3], [10, 4], [8, 4], [10, 4]], // i  VII VI VII
    [[0, 3], [3, 4], [10, 4], [5, 3]],  // i  III VII iv
  ],
};
// Arpeggio patterns over chord tones: 0 root, 1 third, 2 fifth, 3 octave, 4 third+12, 5 fifth+12.
const PATTERNS = [
  [0, 1, 2, 3, 2, 1, 0, 2],
  [0, 2, 3, 4, 3, 2, 1, 2],
  [0, 2, 1, 3, 2, 4, 3, 5],
  [3, 2, 1, 2, 0, 2, 1, 2],
  [0, 3, 2, 4, 1, 3, 2, 5],
];
const TONE = ['0', 'ld(5)', '7', '12', '(ld(5)+12)', '19'];
const BPMS = [84, 90, 96, 100, 104, 108, 112, 120];
const TIMBRES = [ // [2nd harmonic, 3rd harmonic, decay per second]
  [0.30, 0.10, 5.0],
  [0.15, 0.25, 4.0],
  [0.45, 0.05, 6.5],
  [0.05, 0.30, 3.5],
];

const lines = [];
const usedKeys = new Set();
(catalog.tracks ?? []).forEach((track) => {
  if (!SLUG.test(track.audio ?? '')) throw new Error(`track ${track.key}: bad audio folder ${track.audio}`);
  const r = rng(`fanfare-demo-audio:${track.key}`);
  const mode = r(2) === 0 ? 'major' : 'minor';
  let tonic = 57 + r(12); // MIDI A3 .. G#4
  // No two tracks share tonic and mode (24 combinations; beyond that repeats are allowed).
  for (let i = 0; i < 12 && usedKeys.has(`${mode}${tonic % 12}`); i++) tonic = 57 + ((tonic - 57 + 5) % 12);
  usedKeys.add(`${mode}${tonic % 12}`);
  const progression = PROGRESSIONS[mode][r(4)];
  const pattern = PATTERNS[r(PATTERNS.length)];
  const bpm = BPMS[r(BPMS.length)];
  const [h2, h3, decay] = TIMBRES[r(TIMBRES.length)];
  const levelSeed = r(31);
  const bar = 240 / bpm;
  // Length: a whole number of bars, 70..140 s, and not ending just after a segment boundary
  // (that would leave a tiny last HLS segment).
  let bars = Math.round((70 + r(71)) / bar);
  const ok = (b) => { const s = b * bar; return s >= 65 && s <= 145 && s % 4 >= 1 && s % 4 <= 3.5; };
  for (let d = 0; d < 8 && !ok(bars); d++) bars += d % 2 === 0 ? d + 1 : -(d + 1);
  if (!ok(bars)) throw new Error(`track ${track.key}: no suitable length`);
  const seconds = Number((bars * bar).toFixed(3));

  const hz = (midi) => 440 * 2 ** ((midi - 69) / 12);
  const arpBase = hz(tonic + 12), padBase = hz(tonic), bassBase = hz(tonic - 24);
  const spb = `${bpm}/30`; // eighth notes per second
  const stepDur = 30 / bpm;
  const pick = (values) => values.slice(0, -1).reduceRight(
    (acc, v, i) => `if(eq(ld(3),${i}),${v},${acc})`, String(values[values.length - 1]));
  const arpTone = pattern.slice(0, -1).reduceRight(
    (acc, k, i) => `if(eq(mod(ld(1),8),${i}),${TONE[k]},${acc})`, TONE[pattern[pattern.length - 1]]);
  // Registers: 0 position in eighth notes, 1 eighth-note index, 2 time in the note (s),
  // 3 chord index, 4 chord root (semitones), 5 chord third, 6 arpeggio tone, 7 section gain,
  // 8 time in the bar (s), 9 time in the half bar (s).
  const expr = [
    `st(0,t*${spb})`,
    `st(1,floor(ld(0)))`,
    `st(2,(ld(0)-ld(1))*${num(stepDur)})`,
    `st(3,if(gte(ld(1),${(bars - 1) * 8}),0,mod(floor(ld(1)/8),4)))`,
    `st(4,${pick(progression.map((c) => c[0]))})`,
    `st(5,${pick(progression.map((c) => c[1]))})`,
    `st(6,ld(4)+${arpTone})`,
    `st(7,pow(10,-mod(floor(ld(1)/16)*13+${levelSeed},31)*0.6/20))`,
    `st(8,(ld(0)-floor(ld(1)/8)*8)*${num(stepDur)})`,
    `st(9,(ld(0)-floor(ld(1)/4)*4)*${num(stepDur)})`,
    // master gain * section gain * fade out
    `0.95*ld(7)*min(1,(${seconds}-t)/2)*(` +
      // arpeggio: attack 5 ms, exponential decay, 10 ms release before the next note
      `0.38*min(1,ld(2)/0.005)*exp(-ld(2)*${decay})*min(1,max(0,${num(stepDur)}-ld(2))/0.01)*` +
      `(sin(2*PI*${num(arpBase)}*pow(2,ld(6)/12)*ld(2))` +
      `+${h2}*sin(4*PI*${num(arpBase)}*pow(2,ld(6)/12)*ld(2))` +
      `+${h3}*sin(6*PI*${num(arpBase)}*pow(2,ld(6)/12)*ld(2)))` +
      // pad: root, third, fifth, faded in and out over each bar
      `+0.07*min(1,ld(8)/0.08)*min(1,max(0,${num(bar)}-ld(8))/0.08)*` +
      `(sin(2*PI*${num(padBase)}*pow(2,ld(4)/12)*t)` +
      `+sin(2*PI*${num(padBase)}*pow(2,(ld(4)+ld(5))/12)*t)` +
      `+sin(2*PI*${num(padBase)}*pow(2,(ld(4)+7)/12)*t))` +
      // bass on beats 1 and 3
      `+0.25*min(1,ld(9)/0.01)*exp(-ld(9)*3)*min(1,max(0,${num(2 * bar / 4)}-ld(9))/0.02)*` +
      `(sin(2*PI*${num(bassBase)}*pow(2,ld(4)/12)*ld(9))+0.5*sin(4*PI*${num(bassBase)}*pow(2,ld(4)/12)*ld(9)))` +
    `)`,
  ].join(';');
  const names = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
  const summary = `${names[tonic % 12]} ${mode}, ${bpm} bpm, ${bars} bars`;
  lines.push(['track', track.audio, String(seconds), expr, summary].join('\t'));
});

// Covers ------------------------------------------------------------------------------------
const PALETTE = [
  [[255, 94, 98], [255, 195, 113]], [[67, 206, 162], [24, 90, 157]], [[142, 45, 226], [74, 0, 224]],
  [[252, 70, 107], [63, 94, 251]], [[17, 153, 142], [56, 239, 125]], [[255, 128, 8], [255, 200, 55]],
  [[0, 82, 212], [101, 199, 247]], [[218, 34, 255], [151, 51, 238]], [[238, 9, 121], [255, 106, 0]],
  [[20, 30, 48], [36, 59, 85]], [[86, 171, 47], [168, 224, 99]], [[97, 67, 133], [81, 99, 149]],
];
function wrap(text, width) {
  const out = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && (line + ' ' + word).length > width) { out.push(line); line = word; }
    else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out.join('\n');
}
const covers = [
  ...(catalog.artists ?? []).map((e) => ['artist', e]),
  ...(catalog.albums ?? []).map((e) => ['album', e]),
  ...(catalog.playlists ?? []).map((e) => ['playlist', e]),
];
const seenImages = new Set();
covers.forEach(([kind, entry], index) => {
  const image = entry.image ?? '';
  if (!/^covers\/[a-z0-9-]+\.png$/.test(image)) throw new Error(`${kind} ${entry.key}: image must be covers/<slug>.png, got ${image}`);
  if (seenImages.has(image)) return;
  seenImages.add(image);
  const r = rng(`fanfare-demo-cover:${kind}:${entry.key}`);
  const [c0, c1] = PALETTE[(r(PALETTE.length) + index) % PALETTE.length];
  // gradient from top-left (c0) to bottom-right (c1); `m` shades the kind's pattern
  const m = {
    album: `(1-0.18*lt(mod(hypot(X-150,Y-150),36),14))`,
    artist: `(1-0.25*lt(hypot(X-150,Y-128),78)+0.12*lt(abs(hypot(X-150,Y-128)-86),4))`,
    playlist: `(1-0.15*lt(mod(X+Y,60),24))`,
  }[kind];
  const ch = (i) => `'clip((${c0[i]}+(${c1[i] - c0[i]})*(X+Y)/598)*${m},0,255)'`;
  let graph = `color=c=black:s=300x300:r=1:d=1,geq=r=${ch(0)}:g=${ch(1)}:b=${ch(2)}`;
  let textFile = '-';
  if (useText === '1' && /^[\w/.-]+$/.test(fontFile) && /^[\w/.-]+$/.test(workDir)) {
    textFile = path.join(workDir, `${entry.key}.${kind}.txt`);
    fs.writeFileSync(textFile, wrap(entry.name, 14));
    const label = { artist: 'ARTIST', album: 'ALBUM', playlist: 'PLAYLIST' }[kind];
    const font = fontFile;
    graph += `,drawtext=fontfile='${font}':textfile='${textFile}':fontcolor=white:fontsize=30` +
      `:line_spacing=6:x=(w-text_w)/2:y=h-text_h-40:shadowcolor=black@0.6:shadowx=2:shadowy=2` +
      `,drawtext=fontfile='${font}':text=${label}:fontcolor=white@0.85:fontsize=14:x=20:y=18`;
  }
  // a palette of 128 colours with ordered dithering keeps the PNG small
  graph += `,split[a][b];[a]palettegen=max_colors=128:stats_mode=full[p];[b][p]paletteuse=dither=bayer:bayer_scale=3`;
  lines.push(['cover', image, graph, textFile].join('\t'));
});
process.stdout.write(lines.join('\n') + '\n');
EOF
)

node -e "$PLAN_JS" "$CATALOG_JSON" "$WORK" "$USE_TEXT" "$FONT_FILE" > "$WORK/plan.tsv"

mkdir -p "$CATALOG_DIR/audio" "$CATALOG_DIR/covers"
: > "$WORK/durations.tsv"
declare -A KEEP_AUDIO=() KEEP_COVER=()

while IFS=$'\t' read -r kind a b c d; do
  case "$kind" in
    track)
      folder="$a" seconds="$b" expr="$c" summary="$d"
      KEEP_AUDIO["$folder"]=1
      out="$WORK/audio/$folder"
      mkdir -p "$out"
      (
        cd "$out"
        ffmpeg -nostdin -hide_banner -loglevel error -y \
          -f lavfi -i "aevalsrc=exprs='$expr':s=44100:c=mono:d=$seconds" \
          -fflags +bitexact -flags:a +bitexact -map_metadata -1 \
          -c:a aac -b:a 64k -ar 44100 -ac 1 \
          -f hls -hls_time 4 -hls_playlist_type vod -hls_segment_filename 'seg%03d.ts' index.m3u8
      )
      duration="$(ffprobe -v error -show_entries format=duration -of default=noprint_wrappers=1:nokey=1 "$out/index.m3u8")"
      ms="$(node -e 'process.stdout.write(String(Math.round(Number(process.argv[1]) * 1000)))' "$duration")"
      rm -rf "${CATALOG_DIR:?}/audio/$folder"
      mv "$out" "$CATALOG_DIR/audio/$folder"
      printf '%s\t%s\n' "$folder" "$ms" >> "$WORK/durations.tsv"
      echo "audio  $folder: ${ms} ms ($summary)"
      ;;
    cover)
      image="$a" graph="$b"
      KEEP_COVER["$(basename "$image")"]=1
      ffmpeg -nostdin -hide_banner -loglevel error -y -filter_complex "$graph" \
        -frames:v 1 -fflags +bitexact -flags +bitexact -map_metadata -1 -c:v png -f image2 \
        "$WORK/cover.png"
      size="$(wc -c < "$WORK/cover.png")"
      if (( size >= 60000 )); then
        echo "generate-demo-catalog: $image is $size bytes (limit 60 KB)" >&2
        exit 1
      fi
      mv "$WORK/cover.png" "$CATALOG_DIR/$image"
      echo "cover  $image: $size bytes"
      ;;
  esac
done < "$WORK/plan.tsv"

# Remove outputs of entries that are gone from catalog.json.
for dir in "$CATALOG_DIR"/audio/*/; do
  [[ -d "$dir" ]] || continue
  name="$(basename "$dir")"
  if [[ -z "${KEEP_AUDIO[$name]:-}" ]]; then echo "remove audio/$name"; rm -rf "$dir"; fi
done
for png in "$CATALOG_DIR"/covers/*.png; do
  [[ -f "$png" ]] || continue
  name="$(basename "$png")"
  if [[ -z "${KEEP_COVER[$name]:-}" ]]; then echo "remove covers/$name"; rm -f "$png"; fi
done

# Write the measured durations back into catalog.json.
node -e '
const fs = require("node:fs");
const [catalogJson, durationsTsv] = process.argv.slice(1);
const catalog = JSON.parse(fs.readFileSync(catalogJson, "utf8"));
const ms = new Map(fs.readFileSync(durationsTsv, "utf8").trim().split("\n").map((l) => l.split("\t")));
for (const track of catalog.tracks) {
  const value = Number(ms.get(track.audio));
  if (!Number.isInteger(value) || value < 60000 || value > 150000) throw new Error(`track ${track.key}: bad duration ${ms.get(track.audio)}`);
  track.duration_ms = value;
}
const text = JSON.stringify(catalog, null, 2) + "\n";
if (fs.readFileSync(catalogJson, "utf8") !== text) fs.writeFileSync(catalogJson, text);
' "$CATALOG_JSON" "$WORK/durations.tsv"

echo "catalog: $(du -sh "$CATALOG_DIR" | cut -f1) in $CATALOG_DIR"
