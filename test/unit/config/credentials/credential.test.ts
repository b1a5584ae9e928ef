// The Credentials value (src/config/credentials/credential.ts): the headers and secrets of each kind, who it acts as, and
// the hints a refusal gives for it.
import { describe, expect, it } from 'vitest';
import {
  actingAs,
  apiKeyCredentials,
  credentialsHint,
  forbiddenHint,
  scopeKey,
  tokenCredentials,
  tokenOf,
} from '../../../../src/config/credentials/credential.js';
import { epochSeconds, makeJwt } from '../../../helpers/jwt.js';

const GUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const API_KEY = 'unit-api-key-0123456789';
const SUB_KEY = 'unit-subscription-key-0123456789';
const from = (value: string, source = 'CIP_TOKEN') => ({ value, source });

describe('the Credentials value', () => {
  it('an API key sets ApiKey, the subscription key and EnterpriseId; its secrets are the two keys', () => {
    const credentials = apiKeyCredentials(from(API_KEY, 'CIP_API_KEY'), from(SUB_KEY, "profile 'a'"), from(GUID, '--enterprise-id'));
    expect(credentials.headers).toStrictEqual({
      Authorization: `ApiKey ${API_KEY}`,
      'Ocp-Apim-Subscription-Key': SUB_KEY,
      EnterpriseId: GUID,
    });
    expect(credentials.secrets).toStrictEqual([API_KEY, SUB_KEY]);
    expect(credentials.sources).toStrictEqual({ enterpriseId: '--enterprise-id', apiKey: 'CIP_API_KEY', subscriptionKey: "profile 'a'" });
    expect(tokenOf(credentials)).toBeUndefined();
  });

  it('a token sets Bearer and the subscription key, and no EnterpriseId; its secrets are the token, its signature and the key', () => {
    const token = makeJwt({ sub: 'alice', exp: epochSeconds(3600) });
    const credentials = tokenCredentials(from(token), from(SUB_KEY, 'CIP_SUBSCRIPTION_KEY'));
    expect(credentials.headers).toStrictEqual({ Authorization: `Bearer ${token}`, 'Ocp-Apim-Subscription-Key': SUB_KEY });
    // The header and payload anyone can read; with the signature they are the token.
    expect(credentials.secrets).toStrictEqual([token, SUB_KEY, token.split('.')[2]]);
    expect(tokenCredentials(from('opaque-token-0123456789abcdef'), from(SUB_KEY)).secrets).toStrictEqual([
      'opaque-token-0123456789abcdef',
      SUB_KEY,
    ]);
    expect(credentials.sources).toStrictEqual({ token: 'CIP_TOKEN', subscriptionKey: 'CIP_SUBSCRIPTION_KEY' });
  });

  it('says who acts: the enterprise of an API key, what a token says of itself, or only that it is a token', () => {
    const key = apiKeyCredentials(from(API_KEY), from(SUB_KEY), from(GUID));
    expect(actingAs(key)).toStrictEqual({ afterProfile: `enterprise ${GUID}`, alone: `in enterprise ${GUID}` });
    const withEnterprise = tokenCredentials(from(makeJwt({ enterpriseId: GUID, sub: 'alice' })), from(SUB_KEY));
    expect(actingAs(withEnterprise).alone).toBe(`with a token for enterprise ${GUID}`);
    expect(actingAs(tokenCredentials(from(makeJwt({ sub: 'alice' })), from(SUB_KEY))).alone).toBe("with a token for 'alice'");
    expect(actingAs(tokenCredentials(from('opaque-token-0123456789abcdef'), from(SUB_KEY))).alone).toBe('with a token');
  });

  it("keys completion's cache by a token's hash, never the token", () => {
    const token = makeJwt({ sub: 'alice' });
    const key = scopeKey(tokenCredentials(from(token), from(SUB_KEY)));
    expect(key).toMatch(/^token:[0-9a-f]+$/);
    expect(key).not.toContain(token.slice(0, 20));
    expect(scopeKey(tokenCredentials(from(makeJwt({ sub: 'bob' })), from(SUB_KEY)))).not.toBe(key);
    expect(scopeKey(apiKeyCredentials(from(API_KEY), from(SUB_KEY), from(GUID)))).toBe(GUID);
  });

  it('a 401 hint names where a token came from', () => {
    const stored = tokenCredentials(from(makeJwt({}), "profile 'ci'"), from(SUB_KEY, "profile 'ci'"));
    expect(credentialsHint(stored, 'ci')).toBe(
      "check the token and subscription key of profile 'ci'; 'cip auth login --profile ci --token-file -' replaces the token",
    );
    const env = tokenCredentials(from(makeJwt({})), from(SUB_KEY, 'CIP_SUBSCRIPTION_KEY'));
    expect(credentialsHint(env, undefined)).toBe('check CIP_TOKEN and CIP_SUBSCRIPTION_KEY: the keys came from the environment');
  });

  it("a 403 hint: an API key's enterprise and where it came from; a token's scope, and how to replace it", () => {
    const key = (source: string) => apiKeyCredentials(from(API_KEY), from(SUB_KEY), from(GUID, source));
    const keyWords = (source: string) =>
      `the enterprise id ${GUID} came from ${source}: is it the API key's enterprise? If it is, the key lacks permission for this`;
    expect(forbiddenHint(key('CIP_ENTERPRISE_ID'), undefined)).toBe(keyWords('CIP_ENTERPRISE_ID'));
    expect(forbiddenHint(key('--enterprise-id'), undefined)).toBe(keyWords('--enterprise-id'));
    expect(forbiddenHint(key("profile 'prod'"), 'prod')).toBe(keyWords("profile 'prod'"));
    expect(forbiddenHint(key('/work/app/.cip.json'), 'prod', '/work/app/.cip.json')).toBe(keyWords('the project file /work/app/.cip.json'));

    const scope = 'may lack the scope or role this needs, as a read-only token does, or may not act in this enterprise';
    const stored = tokenCredentials(from(makeJwt({ enterpriseId: GUID }), "profile 'ci'"), from(SUB_KEY, "profile 'ci'"));
    expect(forbiddenHint(stored, 'ci')).toBe(
      `the token from profile 'ci' ${scope}: it says it is for enterprise ${GUID}; 'cip auth login --profile ci --token-file -' replaces it with one that may`,
    );
    expect(forbiddenHint(tokenCredentials(from(makeJwt({})), from(SUB_KEY)), undefined)).toBe(
      `the token from CIP_TOKEN ${scope}; set CIP_TOKEN to one that may`,
    );
    expect(forbiddenHint(tokenCredentials(from('opaque-token-0123456789abcdef', 'somewhere'), from(SUB_KEY)), undefined)).toBe(
      `the token from somewhere ${scope}; use one that may`,
    );
  });
});
