/**
 * A count with its noun in the right number, in English: `1 message`, `0 messages`, `2 messages`
 * (`Intl.PluralRules`, so the rule is the language's, not a hand-made `=== 1`).
 */
export function countOf(n: number, one: string, other: string): string {
  return `${n} ${new Intl.PluralRules('en').select(n) === 'one' ? one : other}`;
}
