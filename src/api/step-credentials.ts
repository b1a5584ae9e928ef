// The first step of the request path: the credentials. The headers the caller gives (the keys, the User-Agent)
// go on requests to the base URL's origin only, as gh's AddAuthTokenHeader puts a token only on its own host.
// Every URL cip builds is checked against that origin before it is sent (api/url.ts); this step holds the same
// line where the headers are put on, whoever built the URL. It is ky's beforeRequest hook (api/http.ts), which ky
// runs once: each attempt of a retried request is a copy of the request it changed, headers and all.

/**
 * Puts `headers` on each request whose URL is on `baseUrl`'s origin. A header the request already has is left as
 * it is, as gh leaves one: `cip api -H 'User-Agent: ...'` wins (`cip api -H` refuses the credential headers).
 */
export function credentialsFor(baseUrl: string, headers: Record<string, string>): (request: Request) => void {
  const origin = new URL(baseUrl).origin;
  return (request) => {
    if (new URL(request.url).origin !== origin) return;
    for (const [name, value] of Object.entries(headers)) if (!request.headers.has(name)) request.headers.set(name, value);
  };
}
