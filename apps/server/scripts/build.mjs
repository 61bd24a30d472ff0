/**
 * Compiles the server into one ES module per entry (`dist/main.js`, `dist/ops.js`) with esbuild,
 * so that a node starts without transpiling a few hundred TypeScript modules through tsx's loader
 * (issue 41: most of a restart's seconds before it answers again). The npm packages are bundled
 * too: resolving and loading their thousand-odd files was a third of a start's CPU time. Only
 * those in `UNBUNDLED` stay outside.
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
/** Packages that find files beside their own at run time, or are not the server's at all. */
const UNBUNDLED = new Set([
  'better-sqlite3', // its native addon, found beside the package
  '@fastify/swagger-ui', // serves the UI's files from its own folder
  '@fastify/swagger',
  'pino', // log transports run its files in worker threads
  // platform/securityHeaders.ts requires helmet at run time for the symbol @fastify/helmet's copy knows
  'helmet',
  '@fastify/helmet',
  'esbuild', // the build's, not the server's
  'tsx',
]);
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => !name.startsWith('@fanfare/') && (UNBUNDLED.has(name) || !pkg.dependencies[name]));

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
  // The map names file and line; the sources are in the checkout (and a smaller map parses faster at start).
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [sourceUrls],
  // Bundled CommonJS modules call require() and read __dirname (ioredis, on errors): give the ES module both.
  banner: {
    js: [
      "import { createRequire as __fanfareRequire } from 'node:module';",
      "import { fileURLToPath as __fanfarePath } from 'node:url';",
      'const require = __fanfareRequire(import.meta.url);',
      'const __filename = __fanfarePath(import.meta.url);',
      "const __dirname = __fanfarePath(new URL('.', import.meta.url));",
    ].join(' '),
  },
});
process.stdout.write(`server compiled to ${pathToFileURL(outdir).pathname}\n`);
