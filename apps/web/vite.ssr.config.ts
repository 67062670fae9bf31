// The server bundle of the first paint (docs/decisions/0013-server-rendered-first-paint.md):
// the client's config (aliases, plugins, tree-shaking) plus an SSR entry, self-contained so
// the server loads one file with no dependency of the web app resolved at run time.
//
//   vite build --manifest && vite build -c vite.ssr.config.ts     (npm run build -w @sagan/web)
//   … --outDir dist-x --emptyOutDir --manifest && vite build -c vite.ssr.config.ts --outDir dist-x/.ssr
//
// Output: `<client outDir>/.ssr/entry-server.js`. The dot folder is never served by
// @fastify/static (dotfiles are refused), so the server code stays private.
import { defineConfig, mergeConfig, type UserConfig } from 'vite';
import clientConfig from './vite.config.ts';

export default defineConfig(
  mergeConfig(clientConfig, {
    ssr: { noExternal: true },
    build: {
      ssr: 'src/ssr/entry-server.tsx',
      outDir: 'dist/.ssr',
      emptyOutDir: true,
      copyPublicDir: false,
      manifest: false,
      rollupOptions: {
        output: { entryFileNames: 'entry-server.js', codeSplitting: false },
      },
    },
  } satisfies UserConfig),
);
