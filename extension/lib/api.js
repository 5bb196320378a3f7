// The calls to fts-serve's JSON API. Failures come back as FtsError with a
// kind the pages turn into a message: 'down' (no answer), 'query' (the query
// is invalid; position is the byte of the query the server points at) or
// 'server' (any other error status).
const TIMEOUT_MS = 5000;

export class FtsError extends Error {
  constructor(kind, message, { position = null, query = null } = {}) {
    super(message);
    this.name = 'FtsError';
    this.kind = kind;
    this.position = position;
    this.query = query;
  }
}

async function getJson(server, path, params) {
  const url = new URL(path, server);
  if (params) url.search = new URLSearchParams(params).toString();
  let response;
  try {
    response = await fetch(url, { credentials: 'omit', cache: 'no-store', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    const why = e.name === 'TimeoutError' ? `no answer in ${TIMEOUT_MS / 1000} s` : 'no answer';
    // A server that answers without allowing this extension's origin (no
    // --cors, where the browser has not granted the host) looks the same.
    throw new FtsError('down', `fts-serve at ${server} is not reachable (${why}). Is it running? ` +
      `Start it with: fts-serve --index DIR --cors ${globalThis.location.origin}`);
  }
  let body;
  try {
    body = await response.json();
  } catch {
    throw new FtsError('server', `${server} answered ${response.status} with something that is not fts-serve's JSON`);
  }
  if (!response.ok) {
    const message = typeof body.error === 'string' ? body.error : `error ${response.status}`;
    if (response.status === 400 && Number.isInteger(body.position)) {
      throw new FtsError('query', message, { position: body.position, query: params ? params.q : null });
    }
    throw new FtsError('server', `fts-serve answered ${response.status}: ${message}`);
  }
  return body;
}

// The line to show for an error: an invalid query says so and where (the
// server's message names the position; it is added where it does not).
export function errorMessage(e) {
  if (!(e instanceof FtsError) || e.kind !== 'query') return e.message;
  const where = e.message.includes(`position ${e.position}`) ? '' : ` (at position ${e.position})`;
  return `Invalid query: ${e.message}${where}`;
}

// GET /search: { total_hits, total_hits_relation, took_ms, offset, hits: [{
// rank, doc, title, url, snippet, highlights: [[begin, end] byte spans] }] }
export function search(server, q, { limit = 10, offset = 0 } = {}) {
  return getJson(server, '/search', { q, limit, offset });
}

// GET /health: { status, docs, generation }
export function health(server) {
  return getJson(server, '/health');
}

// The search page of fts-serve for a query.
export function searchPageUrl(server, q) {
  const url = new URL('/', server);
  url.searchParams.set('q', q);
  return url.href;
}

// Only web links are opened or made links: a document's url could be
// javascript: or data:.
export function isWebUrl(url) {
  return typeof url === 'string' && /^https?:\/\//i.test(url);
}
