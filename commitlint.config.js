/**
 * Commit messages: a subject of at most 72 characters, so
 * `git log --oneline` reads like a changelog; the why goes in the body. Nothing else is enforced:
 * no conventional-commit types, the subject is a plain imperative sentence.
 */
export default {
  helpUrl: 'Subject: one line of at most 72 characters, in the imperative; the why goes in the body.',
  rules: {
    'header-max-length': [2, 'always', 72],
    'header-min-length': [2, 'always', 1],
  },
};
