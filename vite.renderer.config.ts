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
  },
  logLevel: 'warn',
});
