// Set by the bundler from package.json; tests that import sources directly see the fallback.
declare const __CIP_VERSION__: string | undefined;

export const VERSION: string = typeof __CIP_VERSION__ === 'string' ? __CIP_VERSION__ : '0.0.0-dev';
