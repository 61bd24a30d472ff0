import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { wireFrame } from './wireFrame.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

describe('wireFrame', () => {
  it('issue 16: encodes a complete unmasked text frame once (short, 16-bit and 64-bit lengths)', () => {
    for (const len of [2, 125, 126, 300, 70_000]) {
      const payload = Buffer.alloc(len, 0x61);
      const { wire } = wireFrame(payload);
      expect(wire[0]).toBe(0x81);
      const head = len < 126 ? 2 : len < 65_536 ? 4 : 10;
      expect(wire.length).toBe(head + len);
      expect(wire.subarray(head).equals(payload)).toBe(true);
    }
  });

  it('issue 16: works in a process that loaded nothing else (imports ws\'s Sender itself)', () => {
    const file = path.join(HERE, 'wireFrame.ts');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', `import(${JSON.stringify(file)}).then((m) => process.stdout.write(m.wireFrame(Buffer.from('hi')).wire.toString('hex')))`], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(out).toBe('81026869');
  });
});
