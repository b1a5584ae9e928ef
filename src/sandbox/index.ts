// The offline sandbox of the API: `cip sandbox`, `npm run demo`, the benchmarks and the tests start it.
export { readOnlyKeyFor, startSandbox } from './server.js';
export {
  PAGE_PARAMETER,
  SANDBOX_DEFAULTS,
  type AuthErrorStyle,
  type Environment,
  type EtagStyle,
  type Fault,
  type FaultRule,
  type PagingStyle,
  type RecordedRequest,
  type Sandbox,
  type SandboxOptions,
  type TokenOptions,
} from './types.js';
