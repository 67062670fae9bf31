import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const serverPort = process.env.PORT ?? '3000';

export default defineConfig({
  base: '/apps/sagan/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022' },
  server: {
    proxy: {
      '/apps/sagan/api': `http://127.0.0.1:${serverPort}`,
      '/apps/sagan/ws': { target: `ws://127.0.0.1:${serverPort}`, ws: true },
    },
  },
});
