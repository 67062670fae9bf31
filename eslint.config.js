import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const web = './apps/web/src';
// Every folder under features/ is a feature, so a new one is fenced in without editing this.
const features = readdirSync(new URL(`${web}/features`, import.meta.url));
const server = './apps/server/src';
// Every folder under the server's routes/ is a feature, fenced in the same way.
const serverFeatures = readdirSync(new URL(`${server}/routes`, import.meta.url), {
  withFileTypes: true,
})
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

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
  // Imports resolve, and no module reaches itself through its imports.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // TypeScript files are parsed too, or no-cycle would not follow imports into them.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      // no-cycle parses every module it follows. A package in node_modules never imports our
      // code, so no cycle passes through one: parsing packages (their .js and .d.ts) is waste.
      'import-x/ignore': ['node_modules'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [
            'apps/*/tsconfig.json',
            'packages/*/tsconfig.json',
            '{e2e,test,bench}/tsconfig.json',
          ],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-unresolved': 'error',
      'import-x/no-cycle': 'error',
    },
  },
  // The web app's layers, by resolved path (so no spelling of a path slips by): app/ (the
  // router and the layout), main.tsx and ssr/ on top; then features/, each on its own; then
  // components/; then lib/ and config/. A module imports only its own layer or those below it,
  // and a feature never another feature: what two features share moves down to lib/ or
  // components/.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            ...features.map((feature) => ({
              target: `${web}/features/${feature}`,
              from: `${web}/features`,
              except: [`./${feature}`],
              message:
                'features never import each other: move what they share to lib/ or components/',
            })),
            {
              target: [`${web}/features`, `${web}/components`, `${web}/lib`, `${web}/config`],
              from: [`${web}/app`, `${web}/ssr`, `${web}/main.tsx`],
              message: 'app/ is on top: only main.tsx and ssr/ import it',
            },
            {
              target: [`${web}/components`, `${web}/lib`, `${web}/config`],
              from: `${web}/features`,
              message: 'components/ and lib/ never import a feature: the feature imports them',
            },
            {
              target: [`${web}/lib`, `${web}/config`],
              from: `${web}/components`,
              message: 'lib/ is below components/: move the shared piece down to lib/',
            },
          ],
        },
      ],
    },
  },
  // The server's features (routes/<feature>/) are fenced like the web's: what two features
  // share moves to lib/ (or to packages/shared when the web needs it too); what one feature
  // offers the others (deleting a user's games, say) is named in its public.ts, its only door.
  {
    files: ['apps/server/src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: serverFeatures.map((feature) => ({
            target: `${server}/routes/${feature}`,
            from: `${server}/routes`,
            except: [`./${feature}`, ...serverFeatures.map((other) => `./${other}/public.ts`)],
            message:
              "server features never import each other's files: move what they share to lib/, " +
              "or name what one offers the others in that feature's public.ts",
          })),
        },
      ],
    },
  },
);
