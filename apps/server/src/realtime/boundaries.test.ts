import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO = path.resolve(SRC, '../../..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

const rel = (file: string) => path.relative(SRC, file);
const isWing = (file: string) => rel(file).startsWith(`realtime${path.sep}`) || rel(file) === 'server.ts';

describe('the real-time wing', () => {
  it('one publish path: outside the wing, no module publishes on the hub or holds its publishing side', () => {
    const offenders = sourcesUnder(SRC)
      .filter((f) => !isWing(f))
      .flatMap((f) => {
        const text = readFileSync(f, 'utf8');
        const found: string[] = [];
        if (/\bhub\s*\.\s*(emit|publish|nextSeq)\s*\(/.test(text)) found.push(`${rel(f)}: publishes on the hub`);
        if (/import[^;]*\b(PartyHub|LocalPartyHub|RedisPartyHub)\b[^;]*from/.test(text)) found.push(`${rel(f)}: imports the hub's publishing side`);
        return found;
      });
    expect(offenders).toEqual([]);
  });

  it('one publish path: the lint rule refuses a hub publish in domain code', async () => {
    const eslint = new ESLint({ cwd: REPO });
    const config = (await eslint.calculateConfigForFile(path.join(SRC, 'party/chat/messages/service.ts'))) as { rules: Record<string, unknown[]> };
    const messages = JSON.stringify(config.rules['no-restricted-syntax']);
    expect(messages).toContain('Publish party events through runPartyWrite');
    const domain = (await eslint.calculateConfigForFile(path.join(SRC, 'party/timeline/playback.ts'))) as { rules: Record<string, unknown[]> };
    expect(JSON.stringify(domain.rules['no-restricted-syntax'])).toContain('Publish party events through runPartyWrite');
  });

  it('knows nothing of the party domains: it imports only the platform, the protocol and libraries', () => {
    const imports = sourcesUnder(path.join(SRC, 'realtime'))
      .filter((f) => !f.endsWith('.test.ts'))
      .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/from '(\.\.?\/[^']+)'/g)].map((m) => ({ file: rel(f), target: rel(path.resolve(path.dirname(f), m[1]!)) })))
      .filter(({ target }) => !target.startsWith(`realtime${path.sep}`) && !target.startsWith(`platform${path.sep}`));
    expect(imports).toEqual([]);
  });
});
