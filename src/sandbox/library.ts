// The sandbox as a library, for the demo and the benchmarks: dist/sandbox-api.cjs (built from this file).
export { startSandbox, type RunningSandbox, type SandboxOptions } from './start.js';
export { writeSandboxProfile, SANDBOX_PROFILE } from './profile.js';
export { seedCatalogDb } from './catalog/seed/seed-catalog.js';
export { startCatalogSandbox } from './catalog/server.js';
export { startKeysSandbox } from './keys/server.js';
