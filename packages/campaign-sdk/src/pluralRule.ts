/**
 * Evaluates a numeric plural rule expression (`n != 1`, `n%10==1 && n%100!=11 ? 0 : 1`, ...)
 * without `eval` or `new Function`, so a strict Content-Security-Policy never breaks translations.
 * Grammar (C precedence): ternary, ||, &&, == !=, < > <= >=, + -, %, unary ! -, n, integers, ( ).
 */
type Node = (n: number) => number;

const TOKEN = /\s*(n|\d+|==|!=|<=|>=|&&|\|\||[-+%<>!?:()])/y;

function tokenize(expr: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expr.length) {
    if (/^\s*$/.test(expr.slice(TOKEN.lastIndex))) break;
    const m = TOKEN.exec(expr);
    if (!m) throw new Error(`Unexpected character in plural rule: ${expr}`);
    tokens.push(m[1]!);
  }
  return tokens;
}

/** Compiles `expr` to a function of n; throws on anything outside the grammar. */
export function compilePluralExpression(expr: string): Node {
  const tokens = tokenize(expr);
  let i = 0;
  const peek = () => tokens[i];
  const take = (t: string) => {
    if (tokens[i] !== t) throw new Error(`Expected ${t} in plural rule: ${expr}`);
    i += 1;
  };
  const binary = (next: () => Node, ops: Record<string, (a: number, b: number) => number>): (() => Node) => () => {
    let left = next();
    for (let op = peek(); op !== undefined && op in ops; op = peek()) {
      i += 1;
      const l = left;
      const r = next();
      const f = ops[op]!;
      left = (n) => f(l(n), r(n));
    }
    return left;
  };
  const primary = (): Node => {
    const t = tokens[i++];
    if (t === 'n') return (n) => n;
    if (t !== undefined && /^\d+$/.test(t)) {
      const v = Number(t);
      return () => v;
    }
    if (t === '(') {
      const inner = ternary();
      take(')');
      return inner;
    }
    if (t === '!') {
      const x = primary();
      return (n) => Number(!x(n));
    }
    if (t === '-') {
      const x = primary();
      return (n) => -x(n);
    }
    throw new Error(`Unexpected ${t ?? 'end'} in plural rule: ${expr}`);
  };
  const mul = binary(primary, { '%': (a, b) => a % b });
  const add = binary(mul, { '+': (a, b) => a + b, '-': (a, b) => a - b });
  const rel = binary(add, { '<': (a, b) => Number(a < b), '>': (a, b) => Number(a > b), '<=': (a, b) => Number(a <= b), '>=': (a, b) => Number(a >= b) });
  const eq = binary(rel, { '==': (a, b) => Number(a === b), '!=': (a, b) => Number(a !== b) });
  const and = binary(eq, { '&&': (a, b) => Number(a !== 0 && b !== 0) });
  const or = binary(and, { '||': (a, b) => Number(a !== 0 || b !== 0) });
  function ternary(): Node {
    const cond = or();
    if (peek() !== '?') return cond;
    i += 1;
    const yes = ternary();
    take(':');
    const no = ternary();
    return (n) => (cond(n) !== 0 ? yes(n) : no(n));
  }
  const root = ternary();
  if (i !== tokens.length) throw new Error(`Unexpected ${tokens[i]} in plural rule: ${expr}`);
  return root;
}
