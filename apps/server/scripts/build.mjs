/**
 * Compiles the server into one ES module per entry (`dist/main.js`, `dist/ops.js`) with esbuild,
 * so that a node starts without transpiling a few hundred TypeScript modules through tsx's loader
 * (issue 41: most of a restart's seconds before it answers again). Packages from npm stay
 * external; our workspace packages are bundled, since they ship TypeScript sources.
 *
 * Some modules find files beside their source (the demo catalog, the web apps' builds) through
 * `import.meta.url`: each keeps pointing at its own source file, as a URL relative to the bundle.
 */
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(serverDir, 'dist');
const pkg = JSON.parse(fs.readFileSync(path.join(serverDir, 'package.json'), 'utf8'));
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => !name.startsWith('@fanfare/'));

/** `import.meta.url` of each source module, as it would be unbundled. */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const relative = path.relative(outdir, args.path).split(path.sep).join('/');
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

await build({
  entryPoints: { main: path.join(serverDir, 'src/main.ts'), ops: path.join(serverDir, 'src/ops/main.ts') },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [sourceUrls],
  // Bundled CommonJS helpers call require(): give the ES module one.
  banner: { js: "import { createRequire as __fanfareRequire } from 'node:module'; const require = __fanfareRequire(import.meta.url);" },
});
process.stdout.write(`server compiled to ${pathToFileURL(outdir).pathname}\n`);
