// The options page: the address of fts-serve, saved in chrome.storage.local,
// and a connection test against its /health.
import { health } from './lib/api.js';
import { grantedAtInstall, loadServer, normalizeServer, permissionPattern, saveServer } from './lib/settings.js';

const $ = (id) => document.getElementById(id);

// The page marks the outcome of its last action (body's data-outcome) for a
// test to wait on.
function say(message, ok, outcome) {
  $('result').textContent = message;
  $('result').className = ok ? 'ok' : 'bad';
  document.body.dataset.outcome = outcome;
}

function showCommand(origin) {
  const url = new URL(origin);
  const listen = `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
  $('command').textContent = `fts-serve --index DIR --listen ${listen} --cors ${location.origin}`;
}

// The typed address as an origin, or null after saying what is wrong.
function typedOrigin() {
  try {
    return normalizeServer($('server').value);
  } catch (e) {
    say(e.message, false, 'invalid');
    return null;
  }
}

async function save(event) {
  event.preventDefault();
  const origin = typedOrigin();
  if (!origin) return;
  // Asked for at once, while the click still counts as the user's gesture.
  if (!grantedAtInstall(origin)) {
    let granted = false;
    try {
      granted = await chrome.permissions.request({ origins: [permissionPattern(origin)] });
    } catch (e) {
      say(`Could not ask for access to ${origin}: ${e.message}`, false, 'refused');
      return;
    }
    if (!granted) {
      say(`Not saved: the extension needs your permission to reach ${origin}.`, false, 'refused');
      return;
    }
  }
  await saveServer(origin);
  $('server').value = origin;
  showCommand(origin);
  say(`Saved: searches go to ${origin}.`, true, 'saved');
}

async function test() {
  const origin = typedOrigin();
  if (!origin) return;
  say(`Connecting to ${origin}...`, true, 'testing');
  try {
    const h = await health(origin);
    say(`Connected: fts-serve at ${origin} serves ${Number(h.docs).toLocaleString('en-US')} documents.`, true, 'connected');
  } catch (e) {
    say(e.message, false, 'failed');
  }
}

document.addEventListener('DOMContentLoaded', async () => {
  const server = await loadServer();
  $('server').value = server;
  showCommand(server);
  $('options-form').addEventListener('submit', save);
  $('test').addEventListener('click', test);
  document.body.dataset.ready = 'true';
});
