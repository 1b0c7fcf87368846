// Lint rules, including the import boundaries of architecture.md (shared ← client/server/agent/simulator,
// no feature-to-feature imports in the client).
import { readdirSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const featuresDir = './src/client/features';
const features = existsSync(featuresDir) ? readdirSync(featuresDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : [];

const zones = [
  { target: './src/shared', from: ['./src/server', './src/client', './src/agent', './src/simulator'], message: 'shared imports nothing of ours' },
  { target: './src/client', from: ['./src/server', './src/agent', './src/simulator'], message: 'the client never imports server, agent or simulator' },
  { target: './src/server', from: ['./src/client', './src/agent', './src/simulator'], message: 'the server never imports client, agent or simulator' },
  { target: './src/agent', from: ['./src/server', './src/client'], message: 'the agent talks to the server only over HTTP' },
  { target: './src/simulator', from: ['./src/server', './src/client', './src/agent'], message: 'the simulator stands alone' },
  ...features.map((f) => ({
    target: `${featuresDir}/${f}`,
    from: featuresDir,
    except: [`./${f}`],
    message: 'a feature never imports another feature: compose in client/app or move the piece to client/components or shared',
  })),
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.tmp/**', 'test-results/**', 'public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-default-export': 'error',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'shared is isomorphic: no node:* imports' }] }],
      'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'localStorage', 'process', 'Buffer'],
    },
  },
  // Config files and migrations must default-export or are loaded by name.
  { files: ['*.config.{js,ts}', 'vite.config.ts', 'eslint.config.js'], rules: { 'import-x/no-default-export': 'off' } },
  { files: ['**/*.test.{ts,tsx}', 'tests/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
