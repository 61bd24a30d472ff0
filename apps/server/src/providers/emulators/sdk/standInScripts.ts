import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { FastifyReply } from 'fastify';
import type { MusicKitStandInConfig } from './musicKitStandIn.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export type StandInScript = { kind: 'apple'; config: MusicKitStandInConfig } | { kind: 'spotify'; apiUrl: string };

/**
 * The emulators' stand-in SDK scripts (`musicKitStandIn.ts`, `spotifyStandIn.ts`) as browser
 * scripts: bundled by esbuild on first request, with this server's emulator addresses written in,
 * and kept for the life of the process (a few KB each).
 */
const built = new Map<string, Promise<string>>();

export function standInScript(script: StandInScript): Promise<string> {
  const key = JSON.stringify(script);
  let js = built.get(key);
  if (!js) {
    const contents =
      script.kind === 'apple'
        ? `import { installMusicKitStandIn } from './musicKitStandIn.ts';\ninstallMusicKitStandIn(${JSON.stringify(script.config)});\n`
        : `import { installSpotifyStandIn } from './spotifyStandIn.ts';\ninstallSpotifyStandIn(${JSON.stringify(script.apiUrl)});\n`;
    js = build({
      stdin: { contents, resolveDir: HERE, loader: 'ts', sourcefile: `${script.kind}-stand-in.ts` },
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      minify: true,
      write: false,
      logLevel: 'silent',
    }).then((r) => r.outputFiles[0]!.text);
    js.catch(() => built.delete(key));
    built.set(key, js);
  }
  return js;
}

/** Answers a stand-in script like a CDN answers the provider's: JavaScript, revalidated on each load. */
export async function sendStandInScript(reply: FastifyReply, script: StandInScript): Promise<FastifyReply> {
  return reply
    .type('text/javascript; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('cross-origin-resource-policy', 'cross-origin')
    .send(await standInScript(script));
}
