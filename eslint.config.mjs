// ESLint: the type-aware TypeScript rules that catch real bugs (promises nobody awaits or that are
// passed where a void callback is expected, `any` flowing into typed code) and React's hooks rules,
// over the product's source. Run by `npm test` (npm run lint).
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const typed = {
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/no-misused-promises': 'error',
  '@typescript-eslint/no-unsafe-assignment': 'error',
  '@typescript-eslint/no-unsafe-call': 'error',
  '@typescript-eslint/no-unsafe-member-access': 'error',
  '@typescript-eslint/no-unsafe-return': 'error',
  '@typescript-eslint/no-unsafe-argument': 'error',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/**', 'e2e/**', 'bench/**', 'scripts/**', '**/*.mjs', '**/*.cjs', '**/*.js'] },
  {
    files: ['shared/**/*.ts', 'runtime/**/*.ts', 'electron/**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { project: ['./tsconfig.runtime.json', './tsconfig.electron.json', './tsconfig.shared.json'] } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: typed,
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    languageOptions: { parser: tseslint.parser, parserOptions: { project: ['./tsconfig.renderer.json'] } },
    plugins: { '@typescript-eslint': tseslint.plugin, 'react-hooks': reactHooks },
    rules: { ...typed, 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
