import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));

/**
 * Module-level maps allowed to stay, by `file: name`, each with its reason. Per-server state (keyed
 * by the context, the database, an app or a listener) belongs to the composition root instead:
 * `server.ts` builds it and hands it over through `ServerContext` or the registering function.
 */
const ALLOWED: Record<string, string> = {
  'party/parties/service.ts: settingsByRow': 'pure memoisation keyed by a frozen party row',
  'party/parties/service.ts: partyAnswers': 'pure memoisation keyed by a frozen party row and play state',
  'platform/route.ts: sharedAnswers': 'pure memoisation of the JSON of shared, immutable answers',
  'platform/route.ts: gzippedAnswers': 'pure memoisation of the gzip of shared, immutable answers (keyed by the answer, collected with it)',
  'providers/emulators/sdk/standInScripts.ts: built': 'pure memoisation of an emulator stand-in bundle by its kind and the addresses written into it',
  'platform/db/cache.ts: changesByDb': 'the change feed belongs to a database handle: openDatabase builds both, and a cached read finds it through the Db it runs on',
};

/** Key types that mark per-server state: the context, the database, an app, a listener. */
const SERVER_KEYED = /^\s*(ServerContext|Db|Kysely\b|App|FastifyInstance|Server|object)\b/;

/** Top-level `const|let|var x = new Map|WeakMap…` that holds state: any WeakMap, a Map keyed by a server resource, or one that starts empty. */
function stateDeclaredIn(source: string): { name: string; line: string }[] {
  return source.split('\n').flatMap((line) => {
    const m = /^(?:export\s+)?(?:const|let|var)\s+(\w+)\b[^=]*=\s*new\s+(WeakMap|Map)\b\s*(?:<([^>]*))?[^(]*\((.?)/.exec(line);
    if (!m) return [];
    const [, name = '', kind, typeArgs = '', firstArg] = m;
    return kind === 'WeakMap' || SERVER_KEYED.test(typeArgs) || firstArg === ')' ? [{ name, line: line.trim() }] : [];
  });
}

/** Every such declaration in the server's sources, as `file: name`. */
function moduleLevelState(): { at: string; line: string }[] {
  return readdirSync(SRC, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .flatMap((file) => {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      return stateDeclaredIn(readFileSync(file, 'utf8')).map((d) => ({ at: `${rel}: ${d.name}`, line: d.line }));
    });
}

describe('state owned by the composition root', () => {
  it('no module-level map hangs per-server state off the context, database or app outside the allow-list', () => {
    const offenders = moduleLevelState()
      .filter((d) => !(d.at in ALLOWED))
      .map((d) => `${d.at} (${d.line})`);
    expect(offenders).toEqual([]);
  });

  it('every allow-list entry still names a module-level map, and says why', () => {
    const found = new Set(moduleLevelState().map((d) => d.at));
    expect(Object.keys(ALLOWED).filter((at) => !found.has(at))).toEqual([]);
    expect(Object.entries(ALLOWED).filter(([, reason]) => reason.trim().length < 10)).toEqual([]);
  });

  it('the detector sees the shapes it guards against and passes constant lookup tables and class fields', () => {
    const source = [
      'const mailers = new WeakMap<ServerContext, Mailer>();',
      'export const runtimes = new WeakMap<ServerContext, { fake: FakeTraffic }>();',
      'const byDb: Map<Db, Recorder> = new Map();',
      'let pending = new Map<string, number>();',
      "const ENTRIES = new Map<string, RouteDef>([['a', def]]);",
      '  private readonly loaded = new Map<string, Numbering>();',
      '  const local = new Map<string, string>();',
    ].join('\n');
    expect(stateDeclaredIn(source).map((d) => d.name)).toEqual(['mailers', 'runtimes', 'byDb', 'pending']);
  });
});
