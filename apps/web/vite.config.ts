import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, parseSync, type ESTree, type Plugin, type ResolvedConfig } from 'vite';
import react from '@vitejs/plugin-react';

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

/** The call (under `as`/`satisfies`/parentheses) a declaration's initialiser starts with. */
function callOf(node: ESTree.Expression | null | undefined): ESTree.CallExpression | null {
  while (
    node &&
    (node.type === 'TSAsExpression' ||
      node.type === 'TSSatisfiesExpression' ||
      node.type === 'TSNonNullExpression' ||
      node.type === 'ParenthesizedExpression')
  )
    node = node.expression;
  return node?.type === 'CallExpression' ? node : null;
}

/** True for `z.object(…)`, `z.string().min(1)`, …: a call chain that starts at `z`. */
function startsAtZ(node: ESTree.Expression | ESTree.Super): boolean {
  for (;;) {
    if (node.type === 'Identifier') return node.name === 'z';
    if (node.type === 'CallExpression') node = node.callee;
    else if (node.type === 'MemberExpression') node = node.object;
    else return false;
  }
}

/**
 * Marks module-level zod schema definitions (`export const x = z.object(…)`) pure, so the
 * bundler drops the schemas a chunk does not use instead of keeping each one as a possible side
 * effect (docs/decisions/0011). Rolldown's `treeshake.manualPureFunctions: ['z']` did this by
 * name for every module, which also marked the minified function `z` inside Preact pure and
 * removed its renderer's diff call (docs/decisions/0012); this annotates only modules that import
 * `z` from zod.
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
        const starts: number[] = [];
        for (const statement of program.body) {
          const decl =
            statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
          if (decl?.type !== 'VariableDeclaration') continue;
          for (const d of decl.declarations) {
            const call = callOf(d.init);
            if (call && startsAtZ(call) && code[call.start] === 'z') starts.push(call.start);
          }
        }
        if (starts.length === 0) return null;
        let out = code;
        for (const at of starts.reverse())
          out = `${out.slice(0, at)}/* @__PURE__ */ ${out.slice(at)}`;
        // No source map of our own: builds have none, and only columns after an annotation move.
        return { code: out, map: null };
      },
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
    closeBundle() {
      if (ssr) return;
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

export default defineConfig({
  base: '/apps/sagan/',
  // Fast Refresh is React's and does nothing under Preact (edits would be accepted but never
  // shown), so the dev server reloads the page on an edit instead.
  // The precache list is written first, so the compressed copies of sw.js are of its final text.
  plugins: [
    react({ refreshExclude: /./ }),
    pureZodSchemas(),
    noReactRuntime(),
    serviceWorkerPrecache(),
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
