// Points git at .githooks so the commit-msg check runs. Called by the root `prepare` script and
// never fails: a tarball without .git, a CI checkout or a machine without git still installs.
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import process from 'node:process';

const root = realpathSync(dirname(import.meta.dirname));

if (!process.env.CI) {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    // Only our own checkout: a copy unpacked inside someone else's repository must not touch theirs.
    if (realpathSync(git('rev-parse', '--show-toplevel')) === root) git('config', 'core.hooksPath', '.githooks');
  } catch {
    // Not a git work tree, or no git: nothing to install.
  }
}
