// Where fts-serve is: one origin kept in chrome.storage.local (an address on
// this machine, so not synced to the user's other browsers).
export const DEFAULT_SERVER = 'http://127.0.0.1:8080';

// The origins the manifest's host_permissions grant at install; any other
// server needs an optional host permission, asked for when it is saved.
const GRANTED_HOSTS = new Set(['127.0.0.1', 'localhost']);

// "host:port", "http://host:port" or "http://host:port/" to the origin
// ("http://host:port"); throws an Error saying what is wrong with the text.
export function normalizeServer(text) {
  let input = String(text).trim();
  if (!input) throw new Error('Enter the address of fts-serve, e.g. ' + DEFAULT_SERVER);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) input = 'http://' + input;
  let url;
  try {
    url = new URL(input);
  } catch {
    throw new Error(`"${text}" is not an address (expected e.g. ${DEFAULT_SERVER})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`fts-serve speaks http or https, not ${url.protocol.slice(0, -1)}`);
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) {
    throw new Error('Give only the scheme, host and port of fts-serve (no path, query or user)');
  }
  return url.origin;
}

// The match pattern of the host permission the server needs.
export function permissionPattern(origin) {
  return origin + '/*';
}

export function grantedAtInstall(origin) {
  const url = new URL(origin);
  return url.protocol === 'http:' && GRANTED_HOSTS.has(url.hostname);
}

export async function loadServer() {
  const { server } = await chrome.storage.local.get('server');
  return typeof server === 'string' && server ? server : DEFAULT_SERVER;
}

export async function saveServer(origin) {
  await chrome.storage.local.set({ server: origin });
}
