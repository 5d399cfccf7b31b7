// The lint gate (`npm run lint`, issue 24): type-aware typescript-eslint over the server, the hub
// and the tests. Each tsconfig stays the single source of what a file is compiled with: the
// project service finds the nearest one (tsconfig.json for src/, test/tsconfig.json for test/,
// web/tsconfig.json for web/src), so a file is linted with the same types it is typechecked with.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { defineConfig } from 'eslint/config';

export default defineConfig(
  { ignores: ['dist/**', 'web/dist/**', 'node_modules/**', 'coverage/**'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits loses its rejection (an unhandled rejection ends the process) and
      // its ordering; `void p` says on purpose.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Leaving a key out by destructuring it away (`const { secret: _s, ...rest } = row`) is the
      // house way to omit fields; a leading underscore marks a name unused on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          ignoreRestSiblings: true,
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
      // OFF: an `async` method with no `await` is how this code implements a Promise-returning
      // interface (Fastify hooks and handlers, block executors, stores, the window counter's
      // in-memory twin): `async` turns a throw into a rejection, which the rule's fix
      // (`return Promise.resolve(x)`) would lose.
      '@typescript-eslint/require-await': 'off',
      // OFF: every control character in a regular expression here is there on purpose: input
      // validators refuse C0 controls in names (src/services, src/lib/text.ts, the CLI's args)
      // and tests plant them.
      'no-control-regex': 'off',
      // OFF: its hits here were all values of type `unknown` narrowed to `{}` (parsed JSON config,
      // contact fields, a caught error: `v == null ? '' : String(v)`), where String() is the
      // intended coercion of what is in practice a string or number; the rule cannot tell those
      // from a real object. Objects in template literals stay caught by restrict-template-expressions.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // OFF in tests: response bodies come from light-my-request's `res.json()`, typed `any`, and
      // refusal tests build ill-typed input with `as any` on purpose; the assertions check the
      // shapes at run time, so typing every body would only restate the schemas under test.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // OFF in tests: `expect(stub.method).toHaveBeenCalled()` hands a vitest spy to expect
      // without calling it, the rule's known false positive.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    // The two rules about hooks themselves. The plugin's React Compiler rules (refs,
    // set-state-in-effect, purity, ...) are not taken: the hub is not built with the compiler.
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
