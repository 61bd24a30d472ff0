/**
 * Commit messages (docs/decisions/STYLE.md): a subject of at most 72 characters, so
 * `git log --oneline` reads like a changelog; the why goes in the body. Nothing else is enforced:
 * no conventional-commit types, the subject is a plain imperative sentence.
 */
export default {
  rules: {
    'header-max-length': [2, 'always', 72],
    'header-min-length': [2, 'always', 1],
  },
};
