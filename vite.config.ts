/// <reference types="vitest/config" />
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Plugin, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { precompressDir } from './src/server/precompress.js';

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export const alias = {
  '@shared': r('./src/shared'),
  '@server': r('./src/server'),
  '@client': r('./src/client'),
  '@agent': r('./src/agent'),
  '@sim': r('./src/simulator'),
  '@locales': r('./src/locales'),
};

/** `.br` and `.gz` beside the built text files (src/server/precompress.ts), after every other plugin's closeBundle (sw.js final). */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'hashfield-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await precompressDir(outDir);
      },
    },
  };
}

export default defineConfig({
  resolve: { alias },
  plugins: [
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      injectManifest: {
        rollupFormat: 'iife',
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest,json}'],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
      manifest: {
        name: 'Hashfield mining-farm console',
        short_name: 'Hashfield',
        description: 'Operations console for cryptocurrency-mining farms',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#1c7ed6',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      devOptions: { enabled: false },
    }),
    precompress(),
  ],
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 1200 },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/shared/**/*.test.ts', 'src/server/**/*.test.ts', 'src/agent/**/*.test.ts', 'src/simulator/**/*.test.ts', 'tests/server/**/*.test.ts', 'tests/agent/**/*.test.ts'],
          testTimeout: 30000,
          hookTimeout: 60000,
          pool: 'forks',
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/client/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/support/client-setup.ts'],
          // Longer than the 5 s Testing Library waits for (client-setup.ts), so a slow wait fails with its own message.
          testTimeout: 15000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.e2e.test.ts'],
          testTimeout: 120000,
          hookTimeout: 180000,
          pool: 'forks',
          maxWorkers: 2,
          // One more try for a test that fails (a browser on 2 loaded cores has timed out once in a while); a test
          // that passes on its second try is printed with "(retry x1)" and marked flaky in the JSON report.
          retry: 1,
          // expect.poll's default of 1 s is shorter than a debounced search plus its request on 2 loaded cores.
          expect: { poll: { timeout: 10_000, interval: 100 } },
        },
      },
    ],
  },
});
