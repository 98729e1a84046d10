import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Builds the renderer (renderer/index.html) into dist/renderer, served by `crewdeck serve` and loaded by Electron.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
    // Rolldown prints a report of slow plugins (with raw colour codes into `npm install`'s log) on a busy
    // machine: the build's speed is not the installer's concern.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  logLevel: 'warn',
});
