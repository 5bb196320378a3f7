// Address-bar suggestions for "fts QUERY". Chromium reads a suggestion's
// description as XML with its own tags (<match>, <dim>, <url>), so every
// piece of a document is XML-escaped and only the words the query matched
// are wrapped in <match>. Firefox shows the description as plain text (it
// has no markup), so there it is given without tags or entities.
import { FtsError, errorMessage, isWebUrl, search, searchPageUrl } from './api.js';

export const SUGGESTIONS = 6;

export function escapeXml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]);
}

// How descriptions are written: the omnibox's XML, or plain text.
export const XML_MARKUP = {
  text: escapeXml,
  match: (s) => `<match>${escapeXml(s)}</match>`,
  dim: (s) => `<dim>${escapeXml(s)}</dim>`,
  url: (s) => `<url>${escapeXml(s)}</url>`,
};
export const PLAIN_TEXT = { text: String, match: String, dim: String, url: String };

const WORD = /[\p{L}\p{N}]+/gu;

// The words to mark in titles. fts-serve highlights the query's matches in
// snippets only, so the forms it highlighted there (stems matched: "cats"
// for cat) stand for the matches, with the query's own words beside them
// (a title-only match has no highlight). Field names (title:) are not words
// of the query, nor are its operators or the words it excludes (-dog,
// NOT dog).
export function matchedWords(query, hits) {
  const words = new Set();
  let negated = false;
  for (const m of String(query).matchAll(/((?<=^|[\s(])-)?([\p{L}\p{N}]+)(:?)/gu)) {
    const [, minus, word, colon] = m;
    if (word === 'NOT') negated = true;
    if (colon || word === 'AND' || word === 'OR' || word === 'NOT') continue;
    if (!minus && !negated) words.add(word.toLowerCase());
    negated = false;
  }
  for (const hit of hits) {
    const bytes = new TextEncoder().encode(hit.snippet || '');
    for (const [begin, end] of hit.highlights || []) {
      const form = new TextDecoder().decode(bytes.subarray(begin, end)).toLowerCase();
      for (const w of form.match(WORD) || []) words.add(w);
    }
  }
  return words;
}

// The text, escaped, with each word in `words` marked as a match.
export function markWords(text, words, markup = XML_MARKUP) {
  let out = '';
  let at = 0;
  for (const m of String(text).matchAll(WORD)) {
    out += markup.text(text.slice(at, m.index));
    out += words.has(m[0].toLowerCase()) ? markup.match(m[0]) : markup.text(m[0]);
    at = m.index + m[0].length;
  }
  return out + markup.text(String(text).slice(at));
}

// What Enter on a suggestion opens: the document's url when it is a web
// link, else the server's stored copy of the document.
export function hitTarget(server, hit) {
  return isWebUrl(hit.url) ? hit.url : new URL(`/docs/${hit.doc}`, server).href;
}

// The line shown before anything is typed.
export function startDescription(markup = XML_MARKUP) {
  return `Search fts: type a query, e.g. ${markup.match('"wild cat"')}`;
}

// { suggestions: [{ content, description }], defaultDescription }: the top
// titles for the text, and the line above them (what Enter does, or why
// there is nothing: server down, invalid query with its position).
export async function suggestionsFor(text, server, markup = XML_MARKUP) {
  const q = String(text).trim();
  if (!q) return { suggestions: [], defaultDescription: startDescription(markup) };
  let data;
  try {
    data = await search(server, q, { limit: SUGGESTIONS });
  } catch (e) {
    if (!(e instanceof FtsError)) throw e;
    return { suggestions: [], defaultDescription: `${markup.dim('fts:')} ${markup.text(errorMessage(e))}` };
  }
  const words = matchedWords(q, data.hits);
  const seen = new Set();
  const suggestions = [];
  for (const hit of data.hits) {
    const content = hitTarget(server, hit);
    if (seen.has(content)) continue;  // Chromium drops suggestions whose content repeats
    seen.add(content);
    suggestions.push({
      content,
      description: `${markWords(hit.title || '(untitled)', words, markup)} ${markup.dim('-')} ${markup.url(content)}`,
    });
  }
  const n = data.total_hits.toLocaleString('en-US') + (data.total_hits_relation === 'gte' ? '+' : '');
  const defaultDescription = data.hits.length
    ? `Open the best hit for ${markup.match(q)} ${markup.dim(`(${n} hits)`)}`
    : `No hits for ${markup.match(q)}: open the fts search page`;
  return { suggestions, defaultDescription };
}

// Where Enter on the typed text goes: a suggestion's content as it is (it
// is a url), else the best hit, else the search page of fts-serve.
export async function enteredTarget(text, server) {
  const q = String(text).trim();
  const fromSuggestion = isWebUrl(q) ? q : null;
  if (fromSuggestion) return fromSuggestion;
  try {
    const data = await search(server, q, { limit: 1 });
    if (data.hits.length) return hitTarget(server, data.hits[0]);
  } catch (e) {
    if (!(e instanceof FtsError)) throw e;
  }
  return searchPageUrl(server, q);
}
