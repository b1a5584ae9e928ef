// What stands in front of the API: Azure API Management checks the subscription key, then the API checks the
// credential and whether it may write. The credential is an ApiKey with an EnterpriseId header, or a Bearer token
// (token.ts) that names its enterprise itself; an EnterpriseId header beside a token must name the same one. The
// first failure answers. How the service's own refusals look is a choice (SandboxOptions.authErrors): a
// ProblemDetails that says why, or the framework's bare 401 challenge and 403.
import type { IncomingMessage } from 'node:http';
import { apim, problem, validationProblem, type Reply } from './replies.js';
import { ENTERPRISE_CLAIM, bearerChallenge, checkToken, tokenMayWrite } from './token.js';
import type { AuthErrorStyle } from './types.js';

export interface GatewayKeys {
  apiKey: string;
  readOnlyApiKey: string;
  subscriptionKey: string;
  enterpriseId: string;
  /** The HS256 secret Bearer tokens are signed with. */
  tokenSecret: string;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE']);

const APIM_MISSING_KEY =
  'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.';
const APIM_INVALID_KEY = 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.';
// What the real gateway sends with its 401s, so clients can tell a gateway rejection from an API one.
const APIM_CHALLENGE = 'AzureApiManagementKey realm="https://api.copyl.com/ms",name="Ocp-Apim-Subscription-Key",type="header"';

/** A header's value, or '' when it is missing or repeated. */
export function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return typeof value === 'string' ? value : '';
}

/** The service's refusal: a ProblemDetails with the detail, or in the framework's style no body (a 401 with its challenge). */
function refusal(style: AuthErrorStyle, status: 401 | 403, detail: string, headers: Record<string, string> = {}): Reply {
  return style === 'framework' ? { status, headers } : problem(status, { detail }, headers);
}

/** The answer that refuses the request, or undefined when the keys and enterprise let it through. */
export function checkAccess(req: IncomingMessage, keys: GatewayKeys, style: AuthErrorStyle = 'problem'): Reply | undefined {
  const subscriptionKey = header(req, 'ocp-apim-subscription-key');
  if (subscriptionKey === '') return apim(401, APIM_MISSING_KEY, { 'WWW-Authenticate': APIM_CHALLENGE });
  if (subscriptionKey !== keys.subscriptionKey) {
    return apim(401, APIM_INVALID_KEY, { 'WWW-Authenticate': APIM_CHALLENGE });
  }

  const authorization = header(req, 'authorization');
  // The JWT bearer handler's own test: the scheme word in any case, then one space.
  if (/^Bearer /i.test(authorization)) return checkBearer(req, authorization.slice('Bearer '.length).trim(), keys, style);
  const apiKey = /^ApiKey\s+(.*)$/i.exec(authorization)?.[1];
  const readOnly = apiKey === keys.readOnlyApiKey;
  if (apiKey !== keys.apiKey && !readOnly) {
    return refusal(style, 401, 'The API key is invalid.', { 'WWW-Authenticate': 'ApiKey' });
  }

  const enterpriseId = header(req, 'enterpriseid');
  if (!GUID.test(enterpriseId)) {
    return validationProblem({ EnterpriseId: ['The EnterpriseId header must be a GUID.'] });
  }
  if (enterpriseId.toLowerCase() !== keys.enterpriseId.toLowerCase()) {
    return refusal(style, 403, 'The API key has no access to this enterprise.');
  }
  if (readOnly && WRITE_METHODS.has(req.method ?? '')) {
    return refusal(style, 403, 'The API key lacks sufficient permissions.');
  }
  return undefined;
}

function checkBearer(req: IncomingMessage, token: string, keys: GatewayKeys, style: AuthErrorStyle): Reply | undefined {
  const checked = checkToken(token, keys.tokenSecret, Math.floor(Date.now() / 1000));
  // The handler's challenge: 401, no body, the reason in the header.
  if (!checked.valid) return { status: 401, headers: { 'WWW-Authenticate': bearerChallenge(checked.description) } };

  const claimed = checked.claims[ENTERPRISE_CLAIM];
  const enterpriseId = header(req, 'enterpriseid');
  if (enterpriseId !== '' && !GUID.test(enterpriseId)) {
    return validationProblem({ EnterpriseId: ['The EnterpriseId header must be a GUID.'] });
  }
  const sameAs = (guid: string) => typeof claimed === 'string' && GUID.test(claimed) && claimed.toLowerCase() === guid.toLowerCase();
  if (!sameAs(keys.enterpriseId) || (enterpriseId !== '' && !sameAs(enterpriseId))) {
    return refusal(style, 403, 'The token has no access to this enterprise.');
  }
  if (!tokenMayWrite(checked.claims) && WRITE_METHODS.has(req.method ?? '')) {
    return refusal(style, 403, 'The token lacks sufficient permissions.');
  }
  return undefined;
}
