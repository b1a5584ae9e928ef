// The old floor for `cip env list` and `cip env create`: a bare Node script that makes the same request with
// Node's fetch and the same headers and prints what cip prints (the JSON pretty-printed), with nothing else: no
// CLI, no checks. `raw` prints the body as received instead, a floor lower than any JSON-printing client can reach.
'use strict';
const [mode = 'list'] = process.argv.slice(2);
const headers = {
  Authorization: `ApiKey ${process.env.CIP_API_KEY}`,
  'Ocp-Apim-Subscription-Key': process.env.CIP_SUBSCRIPTION_KEY,
  EnterpriseId: process.env.CIP_ENTERPRISE_ID,
  Accept: 'application/json',
};
const url = `${process.env.CIP_BASE_URL}/Environments`;
const answer =
  mode === 'create'
    ? fetch(url, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'bench' }) })
    : fetch(url, { headers });
answer
  .then((response) => response.text())
  .then((text) => process.stdout.write(mode === 'raw' ? text : `${JSON.stringify(JSON.parse(text), null, 2)}\n`));
