import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const features = ['scoreboards', 'teamsheets', 'playcounts'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-*/**', '**/node_modules/**', '.tmp/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // STYLE: imports go one way. shared imports nothing of ours; web and server never each other.
  {
    files: ['packages/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@sagan/server', '@sagan/web', '**/apps/**'],
              message: 'shared imports nothing of ours',
            },
            {
              group: ['react', 'react-*', 'fastify', '@fastify/*', 'pg', '@electric-sql/*'],
              message: 'shared stays framework-free',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@sagan/server', '**/server/**'], message: 'web never imports server' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@sagan/web', '**/web/**'], message: 'server never imports web' }] },
      ],
    },
  },
  // Web features never import each other (auth, the shared sign-in state, is the exception).
  ...features.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@sagan/server', '**/server/**'], message: 'web never imports server' },
            {
              group: features.filter((f) => f !== feature).map((f) => `**/features/${f}/**`),
              message:
                'features never import each other; move shared code to src/components or src/lib',
            },
          ],
        },
      ],
    },
  })),
);
