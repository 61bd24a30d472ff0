/**
 * Size budget: the core without hls.js stays under 25 KB gzipped, and hls.js loads
 * only in a lazy chunk (when a preview plays). Built here with esbuild, as a page bundler would.
 */
import { build, type Metafile } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

export const CORE_BUDGET_GZIP_BYTES = 25 * 1024;

/** Every output the entry loads before any dynamic import runs (its static import closure). */
function staticClosure(meta: Metafile, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imp of meta.outputs[file]!.imports) if (imp.kind === 'import-statement') visit(imp.path);
  };
  visit(entry);
  return [...seen];
}

describe('campaign SDK size budget', () => {
  it('the core without hls.js is under 25 KB gzipped; hls.js, zod and the typed client load lazily', async () => {
    const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      outdir: '/virtual-out',
      logLevel: 'silent',
    });
    const meta = result.metafile;
    const entryOut = Object.keys(meta.outputs).find((o) => meta.outputs[o]!.entryPoint?.endsWith('campaign-sdk/src/index.ts'))!;
    const core = staticClosure(meta, entryOut);
    const bytes = (path: string) => result.outputFiles.find((f) => f.path.endsWith(path.replace(/^.*virtual-out/, '')))!.contents;
    const coreGzip = core.reduce((sum, o) => sum + gzipSync(bytes(o)).length, 0);
    const coreInputs = core.flatMap((o) => Object.keys(meta.outputs[o]!.inputs));

    expect(coreGzip).toBeLessThan(CORE_BUDGET_GZIP_BYTES);
    expect(coreInputs.filter((i) => i.includes('node_modules/hls.js'))).toEqual([]);
    expect(coreInputs.filter((i) => i.includes('node_modules/zod'))).toEqual([]);

    // hls.js exists only behind a dynamic import.
    const lazy = Object.keys(meta.outputs).filter((o) => !core.includes(o) && o.endsWith('.js'));
    const hlsChunks = lazy.filter((o) => Object.keys(meta.outputs[o]!.inputs).some((i) => i.includes('node_modules/hls.js')));
    expect(hlsChunks).toHaveLength(1);
    const dynamicTargets = Object.values(meta.outputs).flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path));
    expect(dynamicTargets).toContain(hlsChunks[0]);
    console.info(`campaign SDK core: ${coreGzip} bytes gzipped (budget ${CORE_BUDGET_GZIP_BYTES}); lazy chunks: ${lazy.map((o) => `${o.split('/').pop()} ${gzipSync(bytes(o)).length}`).join(', ')}`);
  }, 60_000);
});
