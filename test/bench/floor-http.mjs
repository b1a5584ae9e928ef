// The floor for API commands: a bare node:http(s) script that makes the same request with the same headers over
// a keep-alive agent, reads the whole answer, and prints what cip prints (the JSON pretty-printed), with nothing
// else: no CLI, no checks, no retries. `create` sends cip's POST instead of the list read.
const [mode = 'list'] = process.argv.slice(2);
const url = new URL(`${process.env.CIP_BASE_URL}/Environments`);
const { request, Agent } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
const headers = {
  Authorization: `ApiKey ${process.env.CIP_API_KEY}`,
  'Ocp-Apim-Subscription-Key': process.env.CIP_SUBSCRIPTION_KEY,
  EnterpriseId: process.env.CIP_ENTERPRISE_ID,
  Accept: 'application/json',
};
const body = mode === 'create' ? JSON.stringify({ name: 'bench' }) : undefined;
if (body) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
const text = await new Promise((resolve, reject) => {
  const outgoing = request(url, { method: body ? 'POST' : 'GET', headers, agent: new Agent({ keepAlive: true }) }, (response) => {
    const chunks = [];
    response.on('data', (chunk) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
  });
  outgoing.on('error', reject);
  outgoing.end(body);
});
process.stdout.write(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
