import { fileURLToPath } from 'node:url';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

const api = process.env.API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // The generated tree type-checks cleanly, so its header does not switch type-checking off.
      routeTreeFileHeader: ['/* eslint-disable */', '// noinspection JSUnusedGlobalSymbols'],
    }),
    react(),
    precompress(),
  ],
  // '@/…' is client/src, so imports name where a file lives rather than how far to climb.
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    port: 5173,
    proxy: { '/api': api, '/trpc': api },
  },
  build: { outDir: 'dist', sourcemap: true },
});
