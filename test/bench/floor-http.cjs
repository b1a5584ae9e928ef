// The floor for API commands: a bare node:http(s) script that makes the same requests as cip, with the same
// headers over one keep-alive agent, reads each whole answer, and prints what cip prints (the JSON
// pretty-printed), with nothing else: no CLI, no checks, no retries. It is CommonJS, as cip's entry is: an ES
// module would make Node set up its module loader first (about 10 ms a run), which would flatter every ratio.
// Modes, each the requests the cip command sends:
//   list             GET /Environments                             (cip env list -o json)
//   get ID           GET /Environments, the one with that id        (cip env get ID -o json)
//   create           POST /Environments {"name":"bench"}            (cip env create -f name=bench -o json)
//   update ID        GET /Environments, GET /Environments/ID (for the environment's own ETag: the sandbox has no
//                    read by id, 405), then PUT the record with description "bench" merged in, If-Match the
//                    list's ETag                                     (cip env update ID -f description=bench -o json)
//   delete ID        GET /Environments, then DELETE /Environments/ID (cip env delete ID --yes -o json)
'use strict';
const [mode = 'list', id] = process.argv.slice(2);
const base = `${process.env.CIP_BASE_URL}/Environments`;
const { request, Agent } = base.startsWith('https:') ? require('node:https') : require('node:http');
const agent = new Agent({ keepAlive: true });
const headers = {
  Authorization: `ApiKey ${process.env.CIP_API_KEY}`,
  'Ocp-Apim-Subscription-Key': process.env.CIP_SUBSCRIPTION_KEY,
  EnterpriseId: process.env.CIP_ENTERPRISE_ID,
  Accept: 'application/json',
};

/** One request; calls back with the answer's status, headers and body text. */
function send(method, url, extra, body, done) {
  const outgoing = request(url, { method, headers: { ...headers, ...extra }, agent }, (response) => {
    const chunks = [];
    response.on('data', (chunk) => chunks.push(chunk));
    response.on('end', () => done(response.statusCode, response.headers, Buffer.concat(chunks).toString('utf8')));
  });
  outgoing.end(body);
}

const print = (value) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
const json = (body) => ({ 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });

if (mode === 'create') {
  const body = JSON.stringify({ name: 'bench' });
  send('POST', base, json(body), body, (_status, _headers, text) => print(JSON.parse(text)));
} else {
  send('GET', base, {}, undefined, (_status, listHeaders, text) => {
    const list = JSON.parse(text);
    if (mode === 'list') return print(list);
    const record = list.find((environment) => environment.id === id);
    if (mode === 'get') return print(record);
    const url = `${base}/${encodeURIComponent(id)}`;
    if (mode === 'update') {
      const body = JSON.stringify({ ...record, description: 'bench' });
      return send('GET', url, {}, undefined, () =>
        send('PUT', url, { ...json(body), 'If-Match': listHeaders.etag }, body, (_s, _h, answer) => print(JSON.parse(answer))),
      );
    }
    send('DELETE', url, {}, undefined, (status) =>
      print([{ given: id, id, name: record.name, result: status === 204 ? 'deleted' : String(status), error: null }]),
    );
  });
}
