/** Types for scripts/buildElectron.mjs (imported by scripts/build.mjs and the Electron tests). */
export function buildElectron(options?: { outdir?: string; sourcemap?: boolean | 'linked' | 'inline' | 'external' | 'both' }): Promise<string[]>;
