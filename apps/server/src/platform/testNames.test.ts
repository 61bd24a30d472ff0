/**
 * Test names say what they protect: the spec rule (`listening-party §4 ...`, `campaign spec §5 ...`)
 * or the behaviour, never the issue that asked for the test. An issue number tells a reader of the
 * repository nothing, and it stays behind when the code moves on. This scans every test file the
 * suite runs (the `include` globs of vitest.config.ts) and reads the names from the syntax tree, so
 * a name split over lines, a template literal or `describe.each(...)(...)` is read like any other.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The folders whose test files the suite runs: `apps/*\/src`, `packages/*\/src` and `e2e`. */
function testRoots(): string[] {
  const srcOf = (parent: string) =>
    readdirSync(path.join(REPO, parent), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(REPO, parent, e.name, 'src'));
  return [...srcOf('apps'), ...srcOf('packages'), path.join(REPO, 'e2e')];
}

function testFilesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile() && /\.test\.tsx?$/.test(e.name) && !e.parentPath.split(path.sep).includes('node_modules'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** The functions whose first argument is a test or group name (with their modifiers: `.each(...)`, `.runIf(...)`, `.skip`). */
const NAMING_FUNCTIONS = new Set(['describe', 'suite', 'it', 'test', 'bench']);

/** The identifier a callee starts from: `describe` for `describe.each(x)` or `it.concurrent`. */
function rootName(callee: ts.Expression): string | null {
  let e: ts.Expression = callee;
  for (;;) {
    if (ts.isIdentifier(e)) return e.text;
    if (ts.isPropertyAccessExpression(e)) e = e.expression;
    else if (ts.isCallExpression(e)) e = e.expression;
    else return null;
  }
}

/** The text of a name written as a literal, a template (placeholders kept as `${}`) or a concatenation of those. */
function nameText(arg: ts.Expression): string | null {
  if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) return arg.text;
  if (ts.isTemplateExpression(arg)) return arg.head.text + arg.templateSpans.map((s) => '${}' + s.literal.text).join('');
  if (ts.isParenthesizedExpression(arg)) return nameText(arg.expression);
  if (ts.isBinaryExpression(arg) && arg.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const [left, right] = [nameText(arg.left), nameText(arg.right)];
    return left === null && right === null ? null : `${left ?? '${}'}${right ?? '${}'}`;
  }
  return null;
}

interface TestName {
  line: number;
  name: string;
}

/** Every test and group name in a test file's source, with its line. */
function testNamesIn(source: string, fileName = 'x.test.ts'): TestName[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, kind);
  const names: TestName[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && NAMING_FUNCTIONS.has(rootName(node.expression) ?? '') && node.arguments.length > 0) {
      const name = nameText(node.arguments[0]!);
      if (name !== null) names.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, name });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return names;
}

/** "issue 16", "(issue 14)", "Issue 12:", "issues 10 and 11", "issue #9". */
const CITES_AN_ISSUE = /\bissues? ?#?\d+/i;

describe('test names say what they protect, never an issue number', () => {
  it('reads names from it, test, describe and their .each, .runIf and .skip forms, over lines and in templates', () => {
    const source = [
      "describe.each(DB_TARGETS)('issue 10 bad input on %s', (db) => {",
      "  it(`issue 16: ${n} frames`, () => {});",
      '  it(',
      "    'names the origins (issue 14)',",
      '    () => {},',
      '  );',
      "  describe.runIf(REDIS)('Issue 12: budget', () => {});",
      "  it.each([1, 2])('listening-party §4: retry %i', () => {});",
      "  test('campaign spec §5: ' + 'issue 11', () => {});",
      "  expect('issue 99 in an assertion is not a name').toBeTruthy();",
      '});',
    ].join('\n');
    const names = testNamesIn(source);
    expect(names.map((n) => n.name)).toEqual([
      'issue 10 bad input on %s',
      'issue 16: ${} frames',
      'names the origins (issue 14)',
      'Issue 12: budget',
      'listening-party §4: retry %i',
      'campaign spec §5: issue 11',
    ]);
    expect(names.map((n) => n.line)).toEqual([1, 2, 3, 7, 8, 9]);
    expect(names.filter((n) => CITES_AN_ISSUE.test(n.name))).toHaveLength(5);
  });

  it('no test or describe name in the repository cites an issue number', () => {
    const files = testRoots().flatMap(testFilesUnder);
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) => {
      const source = readFileSync(file, 'utf8');
      // Only a file that cites an issue somewhere (a comment, say) needs its syntax tree.
      if (!CITES_AN_ISSUE.test(source)) return [];
      return testNamesIn(source, file)
        .filter((n) => CITES_AN_ISSUE.test(n.name))
        .map((n) => `${path.relative(REPO, file)}:${n.line}: ${n.name}`);
    });
    expect(offenders, 'name the spec rule (listening-party §N, campaign spec §N) or the behaviour instead').toEqual([]);
  });
});
