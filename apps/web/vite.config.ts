import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const serverPort = process.env.PORT ?? '3000';

export default defineConfig({
  base: '/apps/sagan/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    // Every browser we target has native module preload (docs/decisions/0011).
    modulePreload: { polyfill: false },
    rollupOptions: {
      treeshake: {
        // The shared schemas are built with zod at module level (`export const x = z.object(…)`).
        // Declaring those calls pure lets a page that imports only a constant or a type from a
        // shared module leave zod out of its bundle (docs/decisions/0011).
        manualPureFunctions: ['z'],
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
