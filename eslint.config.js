// @ts-check
// npm run lint runs these rules, then prettier --check. The import zones below hold the boundaries between the
// folders of src/ (the layout and the rules are in docs/architecture.md).
import eslint from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The three services trident talks to, each with its own client and commands.
const SERVICES = ['./src/keys', './src/time', './src/catalog'];
// Where commands live: they reach a service through its client and the Context (ctx.http), never HTTP itself.
const COMMAND_FOLDERS = [...SERVICES, './src/config'].map((folder) => `${folder}/commands`);

export default defineConfig(
  globalIgnores(['dist/', '.test-build/', 'coverage/', 'completions/']),
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  importX.flatConfigs.recommended,
  importX.flatConfigs.typescript,
  {
    languageOptions: {
      globals: globals.node,
      // Types come from tsconfig.json, which holds src/ and test/ (so this is one TypeScript program).
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    settings: {
      // Sources import each other as './x.js' (NodeNext): the resolver finds x.ts for it, as tsc does.
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      // The code marks indexed reads it knows to be present with `!` (arrays and records are read as if
      // noUncheckedIndexedAccess were on): the rule calls every one of those unnecessary.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // async without await is how stubs, defaults and command actions return a promise their callers await, and
      // how a throw becomes a rejection.
      '@typescript-eslint/require-await': 'off',
      // Functions handed around as values (a command group's register, a lock's release) are declared in method
      // syntax but never use `this`.
      '@typescript-eslint/unbound-method': 'off',
      // String() is how values read from SQLite rows and JSON bodies (scalars, typed unknown) become text; the rule
      // takes every unknown narrowed to {} for an object that would print as [object Object].
      '@typescript-eslint/no-base-to-string': 'off',
      // Matching control characters is deliberate: output is escaped, and names and paths are checked, by them.
      'no-control-regex': 'off',
      // `_` names are bindings kept for their place (an array pattern) or left out of a rest (`{ a: _, ...rest }`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Default imports such as fast-check's `fc` and typescript-eslint's `tseslint` are those packages' documented form.
      'import-x/no-named-as-default-member': 'off',
    },
  },
  {
    files: ['**/*.ts'],
    rules: {
      // tsc already checks what these check, and import-x/namespace alone took a third of the run.
      'import-x/namespace': 'off',
      'import-x/default': 'off',
      'import-x/no-unresolved': 'off',
    },
  },
  {
    // Plain JavaScript (build, bench, bin) is outside tsconfig.json: no types to check against.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // CommonJS by design: the launcher in bin/ and the baselines of bench/.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests read parsed JSON answers as `any` and let the assertions find a wrong shape.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      // Type-only imports are left out: they are gone at run time.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/core',
              from: './src',
              except: ['./core'],
              message: 'src/core is what every other folder builds on: it imports nothing from outside src/core.',
            },
            ...SERVICES.map((service) => ({
              target: service,
              from: SERVICES.filter((other) => other !== service),
              message: 'keys, time and catalog do not import each other: what two of them share belongs in src/core.',
            })),
            {
              target: './src/wire',
              from: './src',
              except: ['./wire', './core'],
              message: 'src/wire holds the wire formats trident and the sandbox share: it builds on src/core alone.',
            },
            {
              target: COMMAND_FOLDERS,
              from: './src/core/http',
              message: "a command reaches a service through the service's client (and ctx.http), not src/core/http.",
            },
            {
              target: './src/launcher',
              from: './src',
              except: ['./launcher'],
              message: 'src/launcher loads the bundle: it is built on its own and can import nothing of what it loads.',
            },
            {
              target: './src/sandbox',
              // src/wire, for wire formats the services and the sandbox share, is left out on purpose: both may use it.
              from: [...SERVICES, './src/api', './src/config', './src/status'],
              message: "the sandbox's services take only wire types (src/wire or their own), not trident's clients, commands or stores.",
            },
          ],
        },
      ],
    },
  },
);
