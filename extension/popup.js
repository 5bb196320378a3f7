// The toolbar popup: a search box, the hits with highlighted snippets, and
// paging, against the configured fts-serve.
import { FtsError, errorMessage, isWebUrl, search, searchPageUrl } from './lib/api.js';
import { caretLines, snippetElement, textElement } from './lib/dom.js';
import { loadServer } from './lib/settings.js';

const PAGE_SIZE = 5;
const $ = (id) => document.getElementById(id);
let server = '';
let state = { q: '', offset: 0 };
let searches = 0;  // run() calls so far: an answer to any but the last is dropped

function clearResults() {
  $('results').replaceChildren();
  $('summary').textContent = '';
  $('pager').hidden = true;
}

function showError(e) {
  clearResults();
  $('error').hidden = false;
  $('error-message').textContent = errorMessage(e);
  $('error-caret').textContent = e instanceof FtsError && e.kind === 'query' ? caretLines(e.query, e.position) : '';
}

function render(data) {
  const list = $('results');
  list.replaceChildren();
  const more = data.total_hits_relation === 'gte' ? '+' : '';
  const n = data.total_hits.toLocaleString('en-US') + more;
  $('summary').textContent = `${n} hit${data.total_hits === 1 ? '' : 's'} (${data.took_ms} ms)`;
  list.start = data.offset + 1;
  for (const hit of data.hits) {
    const li = document.createElement('li');
    li.className = 'hit';
    const web = isWebUrl(hit.url);
    const title = textElement(web ? 'a' : 'span', hit.title || '(untitled)', 'title');
    if (web) {
      title.href = hit.url;
      title.target = '_blank';
      title.rel = 'noopener noreferrer';
    }
    li.appendChild(title);
    li.appendChild(textElement('div', hit.url, 'url'));
    if (hit.snippet) li.appendChild(snippetElement(hit.snippet, hit.highlights || []));
    list.appendChild(li);
  }
  const pages = Math.max(1, Math.ceil(data.total_hits / PAGE_SIZE));
  $('pager').hidden = data.total_hits <= PAGE_SIZE;
  $('page').textContent = `page ${Math.floor(data.offset / PAGE_SIZE) + 1} of ${pages.toLocaleString('en-US')}${more}`;
  $('prev').disabled = data.offset === 0;
  $('next').disabled = data.offset + PAGE_SIZE >= data.total_hits;
}

// The popup marks which search it shows (body's data-shown), so a test can
// wait for that search rather than for any result. The mark is cleared
// while a search is on its way: the same query run again (the last search,
// restored on opening, then typed) must not pass for the earlier answer.
function shown(q, offset) {
  document.body.dataset.shown = JSON.stringify({ q, offset });
}

async function run(q, offset) {
  const mine = ++searches;
  state = { q, offset };
  delete document.body.dataset.shown;
  $('error').hidden = true;
  $('open-page').href = searchPageUrl(server, q);
  if (!q.trim()) {
    clearResults();
    shown(q, offset);
    return;
  }
  try {
    const data = await search(server, q, { limit: PAGE_SIZE, offset });
    if (mine !== searches) return;  // a newer search is on its way
    render(data);
  } catch (e) {
    if (mine !== searches) return;
    showError(e);
  }
  shown(q, offset);
  chrome.storage.session.set({ lastQuery: q }).catch(() => {});
}

document.addEventListener('DOMContentLoaded', async () => {
  server = await loadServer();
  $('server').textContent = 'fts-serve at ' + server;
  $('open-page').href = searchPageUrl(server, '');
  $('search-form').addEventListener('submit', (e) => {
    e.preventDefault();
    run($('q').value, 0);
  });
  $('prev').addEventListener('click', () => run(state.q, Math.max(0, state.offset - PAGE_SIZE)));
  $('next').addEventListener('click', () => run(state.q, state.offset + PAGE_SIZE));
  // Reopening the popup shows the last search of this browser session again.
  const { lastQuery } = await chrome.storage.session.get('lastQuery').catch(() => ({}));
  if (lastQuery) {
    $('q').value = lastQuery;
    run(lastQuery, 0);
  }
  document.body.dataset.ready = 'true';
});
