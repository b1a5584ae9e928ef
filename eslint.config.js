// ESLint: typescript-eslint's type-checked strict and stylistic presets over the repository (`eslint .`, less the
// ignores below: what is built or generated);
// Prettier owns the layout (eslint-config-prettier turns off the rules that would fight it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'reports/',
      'coverage/',
      '.stryker-tmp/',
      'completions/',
      '.test-build/',
      'test/reference-api/bin/',
      'test/reference-api/obj/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Numbers and booleans in messages are fine; objects are not.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // `return finish()` in a callback that returns nothing says "stop here" in one line.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true, ignoreVoidReturningFunctions: true }],
      // With noUncheckedIndexedAccess, `rows[i]!` after a bounds check is the honest way to say "checked above".
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // A module does one job and a function reads in one sitting (issue 34): no source file over 400 lines, no
    // function over 100. Every line counts, blank lines and comments too, as a reader counts them.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: false, skipComments: false, IIFEs: true }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
  // The launcher (bin/cip.cjs) is CommonJS, where require is the import.
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  {
    // Tests get the strict rules without type information: tsc type-checks them, and building a second
    // type-checked program for 40 test files doubled the time `npm test` spends linting.
    files: ['test/**/*.ts', 'vitest*.config.ts'],
    ...tseslint.configs.disableTypeChecked,
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      // Tests look for control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  prettier,
);
