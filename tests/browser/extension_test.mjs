// The browser extension (extension/) in a real browser: headless Chromium
// (Debian's chromium, new headless mode) loads it unpacked, and
// puppeteer-core drives its pages against fts-serve on an ephemeral loopback
// port started with --cors set to the extension's origin. Checks: the
// extension's id is the one its manifest key gives (the README names it for
// --cors); the options page saves the address and tests the connection; the
// popup finds `wild cat` with the highlights the API gives, pages, shows an
// HTML title as text and an invalid query with its position; the service
// worker's suggestion handler returns XML-escaped suggestions with <match>
// marks, and what Enter opens; a stopped server gives the message in the
// popup, the suggestions and the options page. Screenshots of the popup go
// to the test output. Exit 77 (ctest: skipped) only when Chromium cannot
// start, and never under CI=true.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  check, launchBrowser, makeIndex, outputDir, run, sourceDir, startServer, stopServer,
} from './harness.mjs';
import { matchedWords } from '../../extension/lib/omnibox.js';

// From the public key in extension/manifest.json.
const EXTENSION_ID = 'mdmkjbfagdgdhkjagomjjddjfgleoijk';
const extensionDir = path.join(sourceDir, 'extension');
const POPUP_PAGE = 5;

const waitOptions = { timeout: 10000 };

async function waitForMark(page, name, value) {
  await page.waitForFunction((n, v) => document.body.dataset[n] === v, waitOptions, name, value);
}

async function openPage(browser, url, viewport) {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('dialog', async (d) => { page.errors.push(`dialog: ${d.message()}`); await d.dismiss(); });
  await page.goto(url, { waitUntil: 'load' });
  await waitForMark(page, 'ready', 'true');
  return page;
}

async function popupSearch(page, query) {
  await page.$eval('#q', (el) => { el.value = ''; });
  await page.type('#q', query);
  await page.keyboard.press('Enter');
  await waitForMark(page, 'shown', JSON.stringify({ q: query, offset: 0 }));
}

function popupHits(page) {
  return page.$$eval('#results li.hit', (items) => items.map((li) => ({
    title: li.querySelector('.title').textContent,
    tag: li.querySelector('.title').tagName,
    href: li.querySelector('.title').getAttribute('href'),
    marks: [...li.querySelectorAll('.snippet mark')].map((m) => m.textContent),
    snippet: li.querySelector('.snippet') ? li.querySelector('.snippet').textContent : '',
    elements: li.querySelectorAll('script, img, b').length,
  })));
}

function popupError(page) {
  return page.evaluate(() => ({
    hidden: document.querySelector('#error').hidden,
    message: document.querySelector('#error-message').textContent,
    caret: document.querySelector('#error-caret').textContent,
    results: document.querySelectorAll('#results li').length,
  }));
}

async function api(base, q, limit, offset = 0) {
  return (await fetch(`${base}/search?${new URLSearchParams({ q, limit, offset })}`)).json();
}

function highlighted(hit) {
  const bytes = new TextEncoder().encode(hit.snippet);
  return hit.highlights.map(([b, e]) => new TextDecoder().decode(bytes.subarray(b, e)));
}

// The omnibox's markup: text with entities and the tags match, dim and url
// only. A '<' or '&' of a document left unescaped breaks this.
function omniboxMarkupOk(description) {
  const bare = description.replace(/<\/?(match|dim|url)>/g, '');
  return !bare.includes('<') && !bare.includes('>') && !/&(?!(amp|lt|gt|quot|apos);)/.test(bare);
}

// The words marked in titles: the query's own, less fields, operators and
// what it excludes, and the forms the server highlighted in snippets.
function checkMatchedWords() {
  const words = (q, hits = []) => [...matchedWords(q, hits)].sort().join(' ');
  check(words('title:Wild cat -dog NOT fox OR re-entry AND (mouse)') === 'cat entry mouse re wild',
    'matched words: the query\'s words, not title:, AND, OR, -dog or NOT fox');
  const hit = { snippet: 'Ünder most cats, the wild', highlights: [[12, 16]] };
  check(words('cat', [hit]) === 'cat cats', 'matched words: a highlighted form (a byte span after a non-ASCII letter)');
}

async function checkOptions(browser, id, base) {
  const page = await openPage(browser, `chrome-extension://${id}/options.html`, { width: 800, height: 500 });
  check(await page.$eval('#server', (el) => el.value) === 'http://127.0.0.1:8080', 'options: the default address is http://127.0.0.1:8080');
  await page.$eval('#server', (el) => { el.value = ''; });
  await page.type('#server', 'ftp://127.0.0.1:1');
  await page.click('#save');
  await waitForMark(page, 'outcome', 'invalid');
  check((await page.$eval('#result', (el) => el.textContent)).includes('not ftp'), 'options: an ftp address is refused with a message');
  await page.$eval('#server', (el) => { el.value = ''; });
  await page.type('#server', base.replace('http://', '') + '/');
  await page.click('#save');
  await waitForMark(page, 'outcome', 'saved');
  check(await page.$eval('#server', (el) => el.value) === base, `options: host:port/ saved as ${base}`);
  const stored = await page.evaluate(() => chrome.storage.local.get('server'));
  check(stored.server === base, 'options: the address is in chrome.storage.local');
  check((await page.$eval('#command', (el) => el.textContent)).endsWith(`--cors chrome-extension://${id}`),
    'options: the fts-serve command shown names the extension origin for --cors');
  await page.click('#test');
  await waitForMark(page, 'outcome', 'connected');
  const health = await (await fetch(`${base}/health`)).json();
  const connected = await page.$eval('#result', (el) => el.textContent);
  check(connected.includes(`serves ${health.docs} documents`), `options: the connection test: "${connected}"`);
  return page;
}

async function checkPopup(browser, id, base) {
  const page = await openPage(browser, `chrome-extension://${id}/popup.html`, { width: 484, height: 620 });
  const foreign = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(`chrome-extension://${id}/`) && !r.url().startsWith(base + '/')) foreign.push(r.url());
  });
  check((await page.$eval('#server', (el) => el.textContent)).endsWith(base), 'popup: uses the saved address');

  await popupSearch(page, 'wild cat');
  const want = await api(base, 'wild cat', POPUP_PAGE);
  const hits = await popupHits(page);
  check(hits.length === want.hits.length && hits.length > 0, `popup: wild cat shows ${hits.length} hits`);
  check(hits.every((h, i) => h.title === want.hits[i].title && h.snippet === want.hits[i].snippet),
    'popup: titles and snippets in the API order');
  check(hits.some((h) => h.title === 'Wild cat'), 'popup: "Wild cat" is among the hits');
  const marks = hits.flatMap((h) => h.marks);
  check(marks.length > 0 && JSON.stringify(marks) === JSON.stringify(want.hits.flatMap(highlighted)),
    `popup: the snippets' highlights marked (${[...new Set(marks)].join(', ')})`);
  check(marks.every((m) => /^(wild|cat)/i.test(m)), 'popup: every highlight is a match of wild or cat');
  const summary = await page.$eval('#summary', (el) => el.textContent);
  check(summary.startsWith(`${want.total_hits} hit`), `popup: the hit count: "${summary}"`);
  await page.screenshot({ path: path.join(outputDir, 'extension-popup.png'), fullPage: true });

  await page.click('#next');
  await waitForMark(page, 'shown', JSON.stringify({ q: 'wild cat', offset: POPUP_PAGE }));
  const second = await api(base, 'wild cat', POPUP_PAGE, POPUP_PAGE);
  const secondTitles = (await popupHits(page)).map((h) => h.title);
  check(JSON.stringify(secondTitles) === JSON.stringify(second.hits.map((h) => h.title)),
    `popup: the next page shows hits ${POPUP_PAGE + 1}-${POPUP_PAGE + second.hits.length}`);
  check(await page.$eval('#results', (ol) => ol.start) === POPUP_PAGE + 1, 'popup: numbering goes on');
  await page.click('#prev');
  await waitForMark(page, 'shown', JSON.stringify({ q: 'wild cat', offset: 0 }));
  check((await popupHits(page))[0].title === want.hits[0].title, 'popup: previous goes back to the first page');

  await popupSearch(page, 'zebrafinch');
  const hostile = await popupHits(page);
  const bold = hostile.find((h) => h.title === 'A <b>bold</b> zebrafinch');
  check(bold && bold.tag === 'A' && bold.href === 'https://example.org/bold', 'popup: a <b> title is shown as text');
  const script = hostile.find((h) => h.title === 'Zebrafinch <img src=x onerror=alert(1)>');
  check(script && script.tag === 'SPAN' && script.href === null, 'popup: a javascript: url is not a link');
  check(hostile.length === 2 && hostile.every((h) => h.elements === 0), 'popup: no element from a document in the popup');
  await page.screenshot({ path: path.join(outputDir, 'extension-popup-escaped.png'), fullPage: true });

  await popupSearch(page, 'cat AND');
  const invalid = await popupError(page);
  check(!invalid.hidden && invalid.message.includes('position 4'), `popup: an invalid query: "${invalid.message}"`);
  check(invalid.caret === 'cat AND\n    ^', 'popup: a caret under position 4');
  check(invalid.results === 0, 'popup: no stale hits beside the error');
  await page.screenshot({ path: path.join(outputDir, 'extension-popup-invalid.png'), fullPage: true });
  check(foreign.length === 0, `popup: no request but to the extension and fts-serve (${foreign.join(', ')})`);
  return page;
}

async function checkSuggestions(worker, base) {
  const catHits = (await api(base, 'wild cat', 6)).hits;
  const cat = await worker.evaluate(() => globalThis.fts.suggestionsFor('wild cat'));
  check(cat.suggestions.length === catHits.length && cat.suggestions.every((s, i) => s.content === catHits[i].url),
    `suggestions: wild cat gives the top ${catHits.length} hits' urls in order`);
  const wildCat = cat.suggestions.find((s) => s.content === catHits.find((h) => h.title === 'Wild cat').url);
  check(wildCat && wildCat.description.startsWith('<match>Wild</match> <match>cat</match> <dim>'),
    `suggestions: the matched words marked: ${wildCat && wildCat.description}`);
  check(cat.defaultDescription.includes('<match>wild cat</match>'), 'suggestions: the default line names the query');

  const bold = await worker.evaluate(() => globalThis.fts.suggestionsFor('bold zebrafinch'));
  const titles = bold.suggestions.map((s) => s.description);
  check(titles.some((d) => d.startsWith('A &lt;b&gt;<match>bold</match>&lt;/b&gt; <match>zebrafinch</match>')),
    `suggestions: a <b> title is escaped, its words marked: ${titles[0]}`);
  check(titles.every((d) => !d.includes('<b>')), 'suggestions: no <b> tag of a document passes through');
  const plain = await worker.evaluate(() => globalThis.fts.suggestionsFor('bold zebrafinch', { plain: true }));
  check(plain.suggestions.some((s) => s.description === 'A <b>bold</b> zebrafinch - https://example.org/bold'),
    `suggestions as plain text (Firefox's): the title as it is, no markup: ${plain.suggestions[0].description}`);
  const all = [...cat.suggestions, ...bold.suggestions].map((s) => s.description);
  check(all.every(omniboxMarkupOk), 'suggestions: every description is the omnibox markup, entities and match/dim/url only');

  const script = await worker.evaluate(() => globalThis.fts.suggestionsFor('zebrafinch script'));
  const scriptHit = (await api(base, 'zebrafinch script', 6)).hits.find((h) => h.url.startsWith('javascript:'));
  check(scriptHit && script.suggestions.some((s) => s.content === `${base}/docs/${scriptHit.doc}`) &&
    script.suggestions.every((s) => /^https?:\/\//.test(s.content)),
  'suggestions: a javascript: url becomes the server\'s /docs/ID');
  check(script.suggestions.every((s) => omniboxMarkupOk(s.description)), 'suggestions: the <img> title escaped');

  const invalid = await worker.evaluate(() => globalThis.fts.suggestionsFor('cat AND'));
  check(invalid.suggestions.length === 0 && invalid.defaultDescription.includes('position 4') &&
    omniboxMarkupOk(invalid.defaultDescription), `suggestions: an invalid query: ${invalid.defaultDescription}`);

  const best = await worker.evaluate(() => globalThis.fts.enteredTarget('wild cat'));
  check(best === catHits[0].url, `Enter opens the best hit: ${best}`);
  const none = await worker.evaluate(() => globalThis.fts.enteredTarget('qqqnotaword'));
  check(none === `${base}/?q=qqqnotaword`, `Enter without a hit opens the search page: ${none}`);
}

// A server the extension has no host permission for (127.0.0.2 is loopback
// but not in the manifest's host_permissions) is reached through CORS only:
// with --cors naming the extension (beside another origin) the popup
// searches it; allowing only another origin it is refused, and the message
// names the --cors to start it with.
async function checkCorsOnly(browser, id, index, base) {
  const allowed = await startServer(index, ['--cors', 'https://app.example', '--cors', `chrome-extension://${id}`], '127.0.0.2');
  const refused = await startServer(index, ['--cors', 'https://other.example'], '127.0.0.2');
  const page = await openPage(browser, `chrome-extension://${id}/popup.html`, { width: 484, height: 620 });
  const answers = [];
  page.on('response', (r) => {
    if (r.url().startsWith(allowed.base + '/')) answers.push(r.headers()['access-control-allow-origin']);
  });
  try {
    for (const [server, ok] of [[allowed.base, true], [refused.base, false]]) {
      await page.evaluate((s) => chrome.storage.local.set({ server: s }), server);
      await page.reload({ waitUntil: 'load' });
      await waitForMark(page, 'ready', 'true');
      check((await page.$eval('#server', (el) => el.textContent)).endsWith(server), `CORS: the popup uses ${server}`);
      await popupSearch(page, 'wild cat');
      const hits = await popupHits(page);
      const error = await popupError(page);
      if (ok) {
        check(hits.length > 0 && hits[0].title === 'Wild cat' && error.hidden,
          'CORS: a server without host permission, started with --cors chrome-extension://ID and a web origin, is searched');
        check(answers.length > 0 && answers.every((o) => o === `chrome-extension://${id}`),
          'CORS: it answered with Access-Control-Allow-Origin: the extension');
      } else {
        check(hits.length === 0 && !error.hidden &&
          error.message.includes(`not reachable`) && error.message.endsWith(`--cors chrome-extension://${id}`),
        `CORS: a server allowing another origin is refused with the message: "${error.message}"`);
      }
    }
  } finally {
    await page.evaluate((s) => chrome.storage.local.set({ server: s }), base);
    await page.close();
    await stopServer(allowed.proc);
    await stopServer(refused.proc);
  }
}

async function checkServerDown(popup, options, worker, proc, base) {
  await stopServer(proc);
  await popupSearch(popup, 'cat');
  const down = await popupError(popup);
  check(!down.hidden && down.message.includes(`fts-serve at ${base} is not reachable`) && down.results === 0,
    `popup: a stopped server: "${down.message}"`);
  await popup.screenshot({ path: path.join(outputDir, 'extension-popup-down.png'), fullPage: true });
  const suggestions = await worker.evaluate(() => globalThis.fts.suggestionsFor('cat'));
  check(suggestions.suggestions.length === 0 && suggestions.defaultDescription.includes('is not reachable'),
    `suggestions: a stopped server: ${suggestions.defaultDescription}`);
  await options.bringToFront();
  await options.click('#test');
  await waitForMark(options, 'outcome', 'failed');
  check((await options.$eval('#result', (el) => el.textContent)).includes('is not reachable'),
    'options: the connection test of a stopped server fails with the message');
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fts-extension-'));
  const profile = path.join(tmp, 'profile');
  fs.mkdirSync(profile);
  fs.mkdirSync(outputDir, { recursive: true });
  const index = makeIndex(tmp, [
    ['A <b>bold</b> zebrafinch', 'https://example.org/bold', 'A zebrafinch whose title is markup & an ampersand.'],
    ['Zebrafinch <img src=x onerror=alert(1)>', 'javascript:alert(2)', 'A zebrafinch with a script for a url.'],
  ]);
  const { proc, base } = await startServer(index, ['--cors', `chrome-extension://${EXTENSION_ID}`]);
  let browser;
  try {
    browser = await launchBrowser(profile, { extension: extensionDir });
    const target = await browser.waitForTarget(
      (t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'), waitOptions);
    const id = new URL(target.url()).host;
    check(id === EXTENSION_ID, `the extension's id is ${EXTENSION_ID} (${id})`);
    const worker = await target.worker();

    checkMatchedWords();
    const options = await checkOptions(browser, id, base);
    const popup = await checkPopup(browser, id, base);
    await checkSuggestions(worker, base);
    await checkCorsOnly(browser, id, index, base);
    await checkServerDown(popup, options, worker, proc, base);
    const errors = [...options.errors, ...popup.errors];
    check(errors.length === 0, `no script errors or dialogs (${errors.join('; ')})`);
    console.log(`screenshots in ${outputDir}`);
  } finally {
    if (browser) await browser.close();
    await stopServer(proc);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

run(main);
