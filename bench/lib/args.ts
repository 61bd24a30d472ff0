/**
 * Reads integer command-line options parsed by `node:util`'s `parseArgs`: the reader returns the
 * option `name` as an integer, or throws when it is not one in [min, max].
 */
export function integerReader<K extends string>(values: { [P in K]?: unknown }): (name: K, min: number, max: number) => number {
  return (name, min, max) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer in [${min}, ${max}]`);
    return n;
  };
}
