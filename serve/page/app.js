// The search page. Every piece of a document (title, url, snippet) goes into
// the page as text nodes, never as HTML, so a title such as
// <script>alert(1)</script> shows as itself.
'use strict';

const PAGE_SIZE = 10;
const $ = (id) => document.getElementById(id);
let state = { q: '', offset: 0 };

function text(tag, content, className) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  el.textContent = content;
  return el;
}

// Highlights are byte offsets into the UTF-8 snippet: slice the bytes.
function snippetNode(snippet, highlights) {
  const p = document.createElement('p');
  p.className = 'snippet';
  const bytes = new TextEncoder().encode(snippet);
  const decode = (a, b) => new TextDecoder().decode(bytes.subarray(a, b));
  let at = 0;
  for (const [begin, end] of highlights) {
    if (begin < at || end > bytes.length || begin >= end) continue;
    p.appendChild(document.createTextNode(decode(at, begin)));
    p.appendChild(text('mark', decode(begin, end)));
    at = end;
  }
  p.appendChild(document.createTextNode(decode(at, bytes.length)));
  return p;
}

// Only web links become links: a document's url could be javascript:.
function safeHref(url) {
  return /^https?:\/\//i.test(url) ? url : null;
}

function showError(message, query, position) {
  $('error').hidden = false;
  $('error-message').textContent = message;
  if (position === undefined || position === null) {
    $('error-caret').textContent = '';
    return;
  }
  // The position counts bytes of the UTF-8 query; the caret sits under the
  // character holding that byte.
  const bytes = new TextEncoder().encode(query);
  const prefix = new TextDecoder().decode(bytes.subarray(0, Math.min(position, bytes.length)));
  $('error-caret').textContent = query + '\n' + ' '.repeat([...prefix].length) + '^';
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
    const href = safeHref(hit.url);
    const title = text(href ? 'a' : 'span', hit.title || '(untitled)', 'title');
    if (href) {
      title.href = href;
      title.rel = 'noopener noreferrer';
    }
    li.appendChild(title);
    li.appendChild(text('div', hit.url, 'url'));
    if (hit.snippet) li.appendChild(snippetNode(hit.snippet, hit.highlights || []));
    list.appendChild(li);
  }
  const pages = Math.max(1, Math.ceil(data.total_hits / PAGE_SIZE));
  const page = Math.floor(data.offset / PAGE_SIZE) + 1;
  $('pager').hidden = data.total_hits <= PAGE_SIZE;
  $('page').textContent = `page ${page} of ${pages.toLocaleString('en-US')}${more}`;
  $('prev').disabled = data.offset === 0;
  $('next').disabled = data.offset + PAGE_SIZE >= data.total_hits;
}

// The page marks which search it shows (body's data-shown), so a script or a
// test driving it can wait for that search rather than for any result.
function shown(q, offset) {
  document.body.dataset.shown = JSON.stringify({ q, offset });
}

async function search(q, offset) {
  state = { q, offset };
  const url = new URL(window.location);
  url.searchParams.set('q', q);
  if (offset) url.searchParams.set('offset', offset); else url.searchParams.delete('offset');
  history.replaceState(null, '', url);
  $('error').hidden = true;
  if (!q.trim()) {
    $('results').replaceChildren();
    $('summary').textContent = '';
    $('pager').hidden = true;
    shown(q, offset);
    return;
  }
  const params = new URLSearchParams({ q, limit: PAGE_SIZE, offset });
  let response, data;
  try {
    response = await fetch('/search?' + params);
    data = await response.json();
  } catch (e) {
    showError('The server did not answer: ' + e.message);
    shown(q, offset);
    return;
  }
  if (state.q !== q || state.offset !== offset) return;  // a newer search is on its way
  if (!response.ok) {
    $('results').replaceChildren();
    $('summary').textContent = '';
    $('pager').hidden = true;
    showError(data.error || `error ${response.status}`, q, data.position);
    shown(q, offset);
    return;
  }
  render(data);
  shown(q, offset);
}

document.addEventListener('DOMContentLoaded', () => {
  $('search-form').addEventListener('submit', (e) => {
    e.preventDefault();
    search($('q').value, 0);
  });
  $('prev').addEventListener('click', () => search(state.q, Math.max(0, state.offset - PAGE_SIZE)));
  $('next').addEventListener('click', () => search(state.q, state.offset + PAGE_SIZE));
  const params = new URLSearchParams(window.location.search);
  const q = params.get('q');
  if (q) {
    $('q').value = q;
    search(q, Number(params.get('offset')) || 0);
  }
});
