import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const HOOK = path.join(ROOT, '.githooks/commit-msg');
const dir = mkdtempSync(path.join(tmpdir(), 'commit-msg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the commit-msg hook as git does (message file as its argument, from the work tree's root). */
function runHook(message: string): { ok: boolean; output: string } {
  const file = path.join(dir, 'COMMIT_EDITMSG');
  writeFileSync(file, message);
  try {
    const output = execFileSync(HOOK, [file], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { ok: true, output };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

/** A subject of exactly `length` characters, in the imperative. */
function subject(length: number): string {
  return 'Count reactions per window '.padEnd(length, 'x');
}

describe('commit-msg hook: subjects of at most 72 characters', () => {
  it('accepts a 72-character subject with a long body line', () => {
    const body = `Why: ${'the body may be as long as it needs '.repeat(4)}`;
    expect(runHook(`${subject(72)}\n\n${body}\n`)).toMatchObject({ ok: true });
  });

  it('refuses a 73-character subject, naming the rule', () => {
    const result = runHook(`${subject(73)}\n\nWhy it matters.\n`);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('header-max-length');
  });

  it('refuses an empty message, which git lets through with --allow-empty-message', () => {
    expect(runHook('\n# Please enter the commit message.\n').ok).toBe(false);
  });
});
