// trident's version, stamped in by the build from package.json; the sources run without a build (the unit tests)
// call themselves 0.0.0-dev.
declare const __TRIDENT_VERSION__: string;
export const VERSION = typeof __TRIDENT_VERSION__ === 'string' ? __TRIDENT_VERSION__ : '0.0.0-dev';
