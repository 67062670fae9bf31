import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, parseSync, type ESTree, type Plugin, type ResolvedConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { COMPILE_HINT, EAGER_MIN_BYTES } from './compile-hints.ts';

const serverPort = process.env.PORT ?? '3000';

/**
 * The app is written and type-checked against React's API (@types/react) but bundled on
 * Preact's compatibility layer, which is ≈ 55 KB gzip lighter than react-dom on every first
 * load (docs/decisions/0012-preact-compat.md). Exact matches, so a React entry point compat
 * does not provide fails the build instead of silently pulling in React.
 * Going back to React: delete this list, its `resolve.alias` line and the guard below, and
 * `refreshExclude` to get Fast Refresh back.
 */
const preactCompat = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server(\.node|\.browser)?$/, replacement: 'preact/compat/server' },
  { find: /^scheduler$/, replacement: 'preact/compat/scheduler' },
];

/**
 * Fails a build that bundles React itself next to Preact, e.g. a new dependency importing a
 * React entry point the aliases above do not cover: two renderers would break hooks at run time.
 */
function noReactRuntime(): Plugin {
  return {
    name: 'sagan:no-react-runtime',
    apply: 'build',
    buildEnd() {
      const react = [...this.getModuleIds()].filter((id) =>
        /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id),
      );
      if (react.length > 0)
        this.error(`React bundled next to preact/compat (add an alias): ${react.join(', ')}`);
    },
  };
}

/** The expression under `as`/`satisfies`/`!`/parentheses. */
function unwrap(node: ESTree.Expression | null | undefined): ESTree.Expression | null {
  while (
    node &&
    (node.type === 'TSAsExpression' ||
      node.type === 'TSSatisfiesExpression' ||
      node.type === 'TSNonNullExpression' ||
      node.type === 'ParenthesizedExpression')
  )
    node = node.expression;
  return node ?? null;
}

/**
 * Where every call of a module-level initialiser starts, outside function bodies (which the
 * declaration does not run): `z.object({ a: z.string() })`, `base.extend({ … })`,
 * `safeText().max(200)` and the calls in their arguments. A chain (`z.string().min(1)`) is
 * one start.
 */
function callStarts(node: unknown, into: Set<number>): Set<number> {
  if (!node || typeof node !== 'object') return into;
  if (Array.isArray(node)) {
    for (const n of node) callStarts(n, into);
    return into;
  }
  const n = node as { type?: unknown; start?: unknown };
  if (
    n.type === 'ArrowFunctionExpression' ||
    n.type === 'FunctionExpression' ||
    n.type === 'ClassExpression'
  )
    return into;
  if (n.type === 'CallExpression' && typeof n.start === 'number') into.add(n.start);
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'type' && key !== 'start' && key !== 'end') callStarts(value, into);
  }
  return into;
}

/**
 * Marks module-level zod schema definitions (`export const x = z.object(…)`, a schema built from
 * another with `.extend(…)` or from a helper such as `safeText()`) pure, calls in their
 * arguments included, so the bundler drops the schemas a chunk does not use instead of keeping
 * each one, or the inner `z.string()` of one, as a possible side effect (docs/decisions/0011):
 * a page that imports a constant or a function from a shared module then loads no zod.
 * Rolldown's `treeshake.manualPureFunctions: ['z']` did this by name for every module, which
 * also marked the minified function `z` inside Preact pure and removed its renderer's diff call
 * (docs/decisions/0012); this annotates only modules that import `z` from zod, whose
 * module-level declarations build schemas and do nothing else.
 */
function pureZodSchemas(): Plugin {
  return {
    name: 'sagan:pure-zod-schemas',
    apply: 'build',
    transform: {
      filter: { id: { include: /\.tsx?$/, exclude: /[\\/]node_modules[\\/]/ }, code: 'zod' },
      handler(code, id) {
        const { program } = parseSync(id, code);
        const importsZ = program.body.some(
          (s) =>
            s.type === 'ImportDeclaration' &&
            s.source.value === 'zod' &&
            s.specifiers.some((sp) => sp.local.name === 'z'),
        );
        if (!importsZ) return null;
        const starts = new Set<number>();
        for (const statement of program.body) {
          const decl =
            statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
          if (decl?.type !== 'VariableDeclaration') continue;
          for (const d of decl.declarations) {
            const init = unwrap(d.init);
            if (init?.type === 'CallExpression') callStarts(init, starts);
          }
        }
        if (starts.size === 0) return null;
        let out = code;
        for (const at of [...starts].sort((a, b) => b - a))
          out = `${out.slice(0, at)}/* @__PURE__ */ ${out.slice(at)}`;
        // No source map of our own: builds have none, and only columns after an annotation move.
        return { code: out, map: null };
      },
    },
  };
}

/** zod's JSON Schema modules, as its classic schemas import them. */
const ZOD_JSON_SCHEMA = {
  processors: '../core/json-schema-processors.js',
  generator: '../core/to-json-schema.js',
} as const;
const STUB_PREFIX = '\0sagan-no-json-schema:';

/**
 * Leaves zod's JSON Schema generation out of the browser's bundle (≈ 4 KB brotli on every page
 * that parses with zod). Every classic schema wires its JSON Schema converter in when it is
 * built, so tree-shaking cannot drop it, though only the server (OpenAPI) ever converts. In the
 * browser each converter is a function that throws; `aggregateChecks`, which the schemas' size
 * getters read, stays the real one. The stub's names are read from zod's own module, so a zod
 * update that adds a converter cannot leave one undefined.
 */
function noJsonSchemaInBrowser(): Plugin {
  let ssr = false;
  return {
    name: 'sagan:no-json-schema-in-browser',
    apply: 'build',
    enforce: 'pre',
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    async resolveId(source, importer) {
      if (ssr || !importer || !/[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/.test(importer))
        return null;
      const kind = (Object.keys(ZOD_JSON_SCHEMA) as (keyof typeof ZOD_JSON_SCHEMA)[]).find(
        (k) => ZOD_JSON_SCHEMA[k] === source,
      );
      if (!kind) return null;
      const real = await this.resolve(source, importer, { skipSelf: true });
      return real ? `${STUB_PREFIX}${kind}:${real.id}` : null;
    },
    load(id) {
      if (!id.startsWith(STUB_PREFIX)) return null;
      const [kind, ...rest] = id.slice(STUB_PREFIX.length).split(':');
      const real = rest.join(':');
      const source = fs.readFileSync(real, 'utf8');
      const declared = [...source.matchAll(/^export (?:const|function) ([A-Za-z_$][\w$]*)/gm)];
      const listed = [...source.matchAll(/^export \{([^}]*)\}/gm)].flatMap((m) =>
        m[1]!.split(',').map((n) =>
          n
            .trim()
            .split(/\s+as\s+/)
            .pop()!,
        ),
      );
      const names = [...declared.map((m) => m[1]!), ...listed].filter(Boolean);
      const keep = kind === 'processors' ? ['aggregateChecks'] : [];
      const refuse = `() => { throw new Error('JSON Schema is not part of the web app'); }`;
      return [
        ...keep.map((n) => `export { ${n} } from ${JSON.stringify(real)};`),
        ...[...new Set(names)]
          .filter((n) => !keep.includes(n))
          .map((n) =>
            kind === 'generator' && n.startsWith('create')
              ? `export const ${n} = () => ${refuse};`
              : `export const ${n} = ${refuse};`,
          ),
      ].join('\n');
    },
  };
}

/** The line of public/sw.js the build replaces with the list of files to precache. */
const PRECACHE_LINE = 'const PRECACHE = [];';

/**
 * Writes the service worker's precache list (public/sw.js) at build time: every file the build
 * put in the output folder (the app's chunks and styles, index.html, the public files), so an
 * input screen opens offline after one online visit, and the list cannot go stale. Dot folders
 * (the server's SSR bundle and the manifest) are the server's and never served.
 */
function serviceWorkerPrecache(): Plugin {
  let outDir = '';
  let base = '/';
  let ssr = false;
  return {
    name: 'sagan:sw-precache',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      base = config.base;
      ssr = Boolean(config.build.ssr);
    },
    // After the bundle and the public folder are written: the list is what is on disk.
    // A failed build has no worker to fill in: its own error is the one to show.
    closeBundle(error) {
      if (ssr || error) return;
      const worker = path.join(outDir, 'sw.js');
      const source = fs.readFileSync(worker, 'utf8');
      if (!source.includes(PRECACHE_LINE)) throw new Error(`public/sw.js has no ${PRECACHE_LINE}`);
      const files = fs
        .readdirSync(outDir, { recursive: true, withFileTypes: true })
        .filter((f) => f.isFile())
        .map((f) =>
          path.relative(outDir, path.join(f.parentPath, f.name)).split(path.sep).join('/'),
        )
        .filter((f) => f !== 'sw.js' && !f.split('/').some((part) => part.startsWith('.')))
        // The compressed copies are the same files to the browser, which asks for the plain name.
        .filter((f) => !/\.(br|gz)$/.test(f))
        .sort()
        .map((f) => `${base}${f}`);
      const list = `const PRECACHE = ${JSON.stringify(files, null, 2)};`;
      fs.writeFileSync(
        worker,
        source.replace(PRECACHE_LINE, () => list),
      );
    },
  };
}

/** Files served as text, which brotli and gzip shrink (images and fonts are already packed). */
const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;

/** Every text file under dir except the server's own dot folders (.ssr, .vite). */
function textFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('.')) return [];
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return textFiles(file);
    return TEXT_FILE.test(e.name) ? [file] : [];
  });
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the client build, at the highest
 * levels: paid once per build, and the server (@fastify/static `preCompressed`) sends them as
 * they are. Every text file gets both, however small, so no static file is compressed per request.
 */
function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'sagan:precompress',
    apply: 'build',
    configResolved(c) {
      config = c;
    },
    closeBundle() {
      if (config.build.ssr) return;
      const outDir = path.resolve(config.root, config.build.outDir);
      for (const file of textFiles(outDir)) {
        const body = fs.readFileSync(file);
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(body, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        );
        fs.writeFileSync(
          `${file}.gz`,
          zlib.gzipSync(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
        );
      }
    },
  };
}

const SEP = String.raw`[\\/]`;
const pathPattern = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('/', SEP);

/** A module of the web app or the shared package, by its path there (no extension). */
function appModule(dir: 'apps/web/src' | 'packages/shared/src', names: string[]): string {
  return `${SEP}${pathPattern(dir)}${SEP}(?:${names.map(pathPattern).join('|')})\\.tsx?$`;
}

/** Every module of these npm packages. */
const npmPackage = (names: string[]) =>
  `${SEP}node_modules${SEP}(?:${names.map(pathPattern).join('|')})${SEP}`;

/**
 * Each file of a first load costs its response headers (≈ 300 bytes) on top of its bytes, and
 * the automatic splitting made a file of every tiny module two pages share (a 100-byte topic
 * family, a 140-byte component). These groups put such modules with the chunk every page that
 * needs them loads anyway:
 * - `framework`: Preact, the router, and the small components every screen shows;
 * - `shell`: the API client, the one key generator (lib/new-id.ts), and the shapes a viewer
 *   reads with (lib/shape.ts), which the shell loads on every page;
 * - `query`: TanStack Query, which only the owner's screens load (lib/query-client.tsx);
 * - `zod`: zod and the shared modules it is always loaded with, for the pages that parse with
 *   it (a viewer's first load reads shapes instead, lib/shape.ts).
 * A module is only added where all it imports is in the same group, so no page loads more
 * than a few hundred bytes it does not use.
 */
const FEW_FILES = [
  {
    name: 'framework',
    test: new RegExp(
      [
        npmPackage(['preact', 'react-router']),
        appModule('packages/shared/src', ['routes', 'http-paths', 'auth-status']),
        appModule('apps/web/src', [
          'components/error-message',
          'components/focus-on-mount',
          'components/loading',
          'components/not-found',
          'components/use-page-title',
          'features/scoreboards/components/sign-in-link',
        ]),
      ].join('|'),
    ),
  },
  {
    name: 'shell',
    test: new RegExp(
      appModule('apps/web/src', [
        'lib/api',
        'lib/new-id',
        'lib/shape',
        'lib/shapes',
        'lib/shell-readers',
        'lib/use-action',
      ]),
    ),
  },
  {
    name: 'query',
    test: new RegExp(npmPackage(['@tanstack/query-core', '@tanstack/react-query'])),
  },
  {
    name: 'viewer',
    test: new RegExp(appModule('apps/web/src', ['lib/viewer-topics', 'lib/viewer-shapes'])),
  },
  {
    name: 'board-words',
    test: new RegExp(
      appModule('packages/shared/src', [
        'clock-display',
        'game-schedule',
        'scoreboard-basics',
        'sports',
      ]),
    ),
  },
  {
    name: 'zod',
    test: new RegExp(
      [npmPackage(['zod']), appModule('packages/shared/src', ['keys', 'text', 'topics/user'])].join(
        '|',
      ),
    ),
  },
  {
    name: 'scoreboard-schemas',
    test: new RegExp(appModule('packages/shared/src', ['scoreboard', 'scoreboard-views'])),
  },
];

/** Large libraries a page calls a small part of: compiling all of them would be wasted work. */
const LAZILY_COMPILED = ['zod', 'query'];

/**
 * V8's explicit compile hint (compile-hints.ts; other engines read a comment), first in every
 * chunk of EAGER_MIN_BYTES or more but LAZILY_COMPILED's. Without it V8 compiles a function
 * when it is first called, on the main thread: on a server-rendered page, during the takeover's
 * render, which Lighthouse counts as blocking time. With it, a chunk's functions are compiled
 * while the file streams in, on a background thread. Written last (after minification, which
 * drops comments, and after Vite puts its preload map at the top of a chunk). File names keep
 * their hash: the hint changes nothing a browser runs, only when it compiles.
 */
function compileHints(): Plugin {
  return {
    name: 'sagan:compile-hints',
    // The server's bundle of the first paint runs in Node, once.
    apply: (config, { command }) => command === 'build' && !config.build?.ssr,
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || LAZILY_COMPILED.includes(chunk.name)) continue;
          if (chunk.code.length < EAGER_MIN_BYTES) continue;
          chunk.code = `${COMPILE_HINT}${chunk.code}`;
        }
      },
    },
  };
}

export default defineConfig({
  base: '/apps/sagan/',
  // Fast Refresh is React's and does nothing under Preact (edits would be accepted but never
  // shown), so the dev server reloads the page on an edit instead.
  // The precache list is written first, so the compressed copies of sw.js are of its final text.
  plugins: [
    react({ refreshExclude: /./ }),
    pureZodSchemas(),
    noJsonSchemaInBrowser(),
    noReactRuntime(),
    serviceWorkerPrecache(),
    compileHints(),
    precompress(),
  ],
  resolve: { alias: preactCompat },
  // A server-side build externalises node_modules by default, and Node would then load the
  // real React for these libraries while our components run on Preact. Bundling them lets the
  // aliases apply inside them too.
  ssr: { noExternal: ['react-router', '@tanstack/react-query'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    // Every browser we target has native module preload (docs/decisions/0011).
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: { codeSplitting: { groups: FEW_FILES } },
      onwarn(warning, warn) {
        // react-router reads React 19's useOptimistic by a computed name and falls back when it
        // is missing, as it is in preact/compat.
        if (warning.code === 'IMPORT_IS_UNDEFINED' && warning.message.includes('`useOptimistic`'))
          return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: {
      '/apps/sagan/api': `http://127.0.0.1:${serverPort}`,
      '/apps/sagan/ws': { target: `ws://127.0.0.1:${serverPort}`, ws: true },
    },
  },
});
