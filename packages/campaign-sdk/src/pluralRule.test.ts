import { describe, expect, it } from 'vitest';
import { compilePluralExpression } from './pluralRule.ts';

describe('plural rule expressions (no eval)', () => {
  it('campaign spec §5/§9: evaluates the numeric rules of common locales', () => {
    const two = compilePluralExpression('(n != 1)');
    expect([0, 1, 2].map(two)).toEqual([1, 0, 1]);
    const fr = compilePluralExpression('(n > 1)');
    expect([0, 1, 2].map(fr)).toEqual([0, 0, 1]);
    const ru = compilePluralExpression('(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)');
    expect([1, 2, 5, 11, 21, 22, 25, 111].map(ru)).toEqual([0, 1, 2, 2, 0, 1, 2, 2]);
    const ar = compilePluralExpression('n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5');
    expect([0, 1, 2, 3, 11, 100].map(ar)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(compilePluralExpression('0')(7)).toBe(0);
    expect(compilePluralExpression('!(n - 1)')(1)).toBe(1);
  });

  it('campaign spec §5: anything outside the grammar is an error', () => {
    for (const bad of ['', 'n ==', '(n != 1', 'n != 1)', 'n ? 1', 'x', 'n = 1', 'n != 1 1']) expect(() => compilePluralExpression(bad)).toThrow();
  });

  it('campaign spec §5: each operator computes its own result (arithmetic, unary minus, comparisons, or)', () => {
    const at = (expr: string, n: number) => compilePluralExpression(expr)(n);
    expect(at('n + 2', 3)).toBe(5);
    expect(at('n - 2', 3)).toBe(1);
    expect(at('-n', 3)).toBe(-3);
    expect(at('n % 3', 7)).toBe(1);
    expect([at('n < 2', 1), at('n < 2', 2), at('n > 2', 2), at('n > 2', 3)]).toEqual([1, 0, 0, 1]);
    expect([at('n <= 2', 2), at('n <= 2', 3), at('n >= 2', 1), at('n >= 2', 2)]).toEqual([1, 0, 0, 1]);
    expect([at('n == 0 || n == 5', 0), at('n == 0 || n == 5', 5), at('n == 0 || n == 5', 3)]).toEqual([1, 1, 0]);
    expect(at('  n  ', 4)).toBe(4); // surrounding blanks are no tokens
    expect(at('12', 0)).toBe(12);
  });

  it('campaign spec §5: errors name what was unexpected and the whole rule', () => {
    expect(() => compilePluralExpression('n $ 1')).toThrow('Unexpected character in plural rule: n $ 1');
    expect(() => compilePluralExpression('(n != 1')).toThrow('Expected ) in plural rule: (n != 1');
    expect(() => compilePluralExpression('n ==')).toThrow('Unexpected end in plural rule: n ==');
    expect(() => compilePluralExpression('n == )')).toThrow('Unexpected ) in plural rule: n == )');
    expect(() => compilePluralExpression('n != 1 1')).toThrow('Unexpected 1 in plural rule: n != 1 1');
    expect(() => compilePluralExpression('n ? 1 ? 2')).toThrow('Expected : in plural rule: n ? 1 ? 2');
  });
});
