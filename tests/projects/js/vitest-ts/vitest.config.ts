import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.spec.ts'],
    exclude: ['**/node_modules/**', 'test/fixtures/**'],
    environment: 'node',
  },
});
