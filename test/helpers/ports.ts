// A port on 127.0.0.1 that refuses connections for the whole run. A port taken and closed again is not one:
// another test file, in another worker, may be given it for its own server a moment later (it happened: a
// "proxy that is down" answered). Servers in the tests ask for port 0, and the system hands those out from
// its ephemeral range (32768 and up on Linux), so a port below 1024, which only root can take and nothing on a
// test machine listens on, stays refused. The ports in the Fetch standard's "bad port" list are left out:
// fetch refuses them before connecting.
import { connect } from 'node:net';

const CANDIDATES = [2, 3, 4, 5, 6, 8, 10, 12, 14, 16];

function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

let found: Promise<number> | undefined;

/** A port on 127.0.0.1 where a connection is refused (ECONNREFUSED), now and for the rest of the run. */
export function refusedPort(): Promise<number> {
  found ??= (async () => {
    for (const port of CANDIDATES) if (await refuses(port)) return port;
    throw new Error(`something listens on every port of ${CANDIDATES.join(', ')} on 127.0.0.1: no port to be refused on`);
  })();
  return found;
}

/** http://127.0.0.1:PORT for a refused port, with the path given. */
export async function refusedUrl(path = ''): Promise<string> {
  return `http://127.0.0.1:${await refusedPort()}${path}`;
}
