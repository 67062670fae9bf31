// The import boundaries (the web app's layers, the server's features) are only worth having if lint fails when one is crossed: these
// lint virtual files, placed in the layers, with the repository's own eslint.config.js.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The rules that fire on `code`, as if it were saved at `path` (relative to the repo root). */
async function rulesHit(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

/** Each import of `specs`, written at `path`, is refused by the fence, saying `message`. */
async function expectFenced(path: string, specs: string[], message: string): Promise<void> {
  for (const spec of specs) {
    const [result] = await eslint.lintText(
      `import * as other from '${spec}';\nexport const f = other;\n`,
      {
        filePath: `${root}${path}`,
      },
    );
    const messages = result?.messages ?? [];
    expect(
      messages.map((m) => m.ruleId),
      spec,
    ).toEqual(['import-x/no-restricted-paths']);
    expect(messages[0]?.message).toContain(message);
  }
}

/** The file at `path`, importing each name from its module, hits no rule. */
async function expectAllowed(path: string, imports: [name: string, from: string][]) {
  const code = [
    ...imports.map(([name, from]) => `import { ${name} } from '${from}';`),
    `export const f = [${imports.map(([name]) => name).join(', ')}];`,
    '',
  ].join('\n');
  expect(await rulesHit(path, code), path).toEqual([]);
}

const NOT_A_FEATURE = 'features never import each other';

// The first lint of a file follows its whole import graph (no-cycle): seconds on a busy machine.
describe('eslint.config.js import boundaries', { timeout: 60_000 }, () => {
  it('refuses a feature importing another feature, however the path is spelled', async () => {
    await expectFenced(
      'apps/web/src/features/playcounts/lint-fixture.ts',
      [
        '../scoreboards/announce.ts',
        './../scoreboards/announce.ts',
        '../../features/scoreboards/announce.ts',
      ],
      NOT_A_FEATURE,
    );
  });

  it('lets a feature import its own files, components/, lib/ and shared', async () => {
    await expectAllowed('apps/web/src/features/playcounts/lint-fixture.ts', [
      ['pathTo', '@sagan/shared/routes'],
      ['Loading', '../../components/loading.tsx'],
      ['useAuth', '../../lib/auth.ts'],
      ['usePlayCount', './api.ts'],
    ]);
  });

  it('refuses lib/ or components/ importing a feature, and anything below app/ importing it', async () => {
    expect(
      await rulesHit(
        'apps/web/src/lib/lint-fixture.ts',
        "import { scoreSentence } from '../features/scoreboards/announce.ts';\nexport const f = scoreSentence;\n",
      ),
    ).toEqual(['import-x/no-restricted-paths']);
    expect(
      await rulesHit(
        'apps/web/src/components/lint-fixture.ts',
        "import { Layout } from '../app/layout.tsx';\nexport const f = Layout;\n",
      ),
    ).toEqual(['import-x/no-restricted-paths']);
  });

  it('lets app/ import features, components and lib', async () => {
    await expectAllowed('apps/web/src/app/lint-fixture.ts', [
      ['scoreSentence', '../features/scoreboards/announce.ts'],
      ['Loading', '../components/loading.tsx'],
      ['api', '../lib/api.ts'],
    ]);
  });

  it("refuses a server feature importing another feature's files, however the path is spelled", async () => {
    await expectFenced(
      'apps/server/src/routes/playcounts/lint-fixture.ts',
      ['../scoreboards/repo.ts', './../scoreboards/topics.ts', '../../routes/teamsheets/repo.ts'],
      "server features never import each other's files",
    );
  });

  it("lets a server feature import its own files, lib/ and another feature's public.ts", async () => {
    await expectAllowed('apps/server/src/routes/account/lint-fixture.ts', [
      ['deleteGame', '../scoreboards/public.ts'],
      ['notFound', '../../lib/http-errors.ts'],
      ['ownedKeys', './repo.ts'],
    ]);
  });

  it('refuses an import that resolves to nothing', async () => {
    expect(
      await rulesHit(
        'apps/web/src/lib/lint-fixture.ts',
        "import { nothing } from './no-such-module.ts';\nexport const f = nothing;\n",
      ),
    ).toEqual(['import-x/no-unresolved']);
  });
});
