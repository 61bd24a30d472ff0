/** Checks the protocol's schema tests share. Test support only: not a module of the package. */
import { expect } from 'vitest';

interface Parses {
  safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } };
}

/** The message a schema refuses `value` with. */
export function refusal(schema: Parses, value: unknown): string {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  return result.error?.issues[0]?.message ?? '';
}

/** Every key of `example` except `optional` is required: dropping any one is refused. */
export function expectAllRequired(schema: Parses, example: Record<string, unknown>, optional: string[] = []): void {
  for (const key of Object.keys(example).filter((k) => !optional.includes(k))) {
    const { [key]: _dropped, ...without } = example;
    expect(schema.safeParse(without).success, `without ${key}`).toBe(false);
  }
}
