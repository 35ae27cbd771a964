// Vitest configuration: unit (*.test.ts) and model (*.model.test.ts) tiers run here; e2e runs in Playwright.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-main/**/*.test.ts', 'src-shared/**/*.test.ts', 'src-preload/**/*.test.ts', 'src-renderer/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    exclude: ['**/*.gpu.test.ts', 'node_modules/**', 'out/**'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
