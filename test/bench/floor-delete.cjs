// The floor for `cip env delete id1 … idN --yes`: a bare node:http script that sends the same DELETEs with the
// same headers over keep-alive connections, 8 at a time, and checks only that each answered 204. CommonJS, as
// cip's entry is.
'use strict';
const http = require('node:http');

const ids = process.argv.slice(2);
const PARALLEL = 8;
const base = new URL(`${process.env.CIP_BASE_URL}/Environments/`);
const agent = new http.Agent({ keepAlive: true, maxSockets: PARALLEL });
const headers = {
  Authorization: `ApiKey ${process.env.CIP_API_KEY}`,
  'Ocp-Apim-Subscription-Key': process.env.CIP_SUBSCRIPTION_KEY,
  EnterpriseId: process.env.CIP_ENTERPRISE_ID,
};

function remove(id) {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(encodeURIComponent(id), base), { method: 'DELETE', headers, agent }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 204 ? resolve() : reject(new Error(`DELETE ${id}: ${response.statusCode}`))));
    });
    request.on('error', reject);
    request.end();
  });
}

let next = 0;
async function worker() {
  while (next < ids.length) await remove(ids[next++]);
}
Promise.all(Array.from({ length: Math.min(PARALLEL, ids.length) }, worker)).then(() => {
  agent.destroy();
  process.stdout.write(`${ids.length} deleted\n`);
});
