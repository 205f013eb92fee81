import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The console is a static single-page app served by the API (server/) from dist/console.
// No React plugin is installed: Vite 8 transforms TSX itself (oxc) with the automatic runtime.
const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  publicDir: 'public',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      // react-router marks its modules "use client"; meaningless in a client-only bundle.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:8000' },
  },
});
