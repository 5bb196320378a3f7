// The search page in a real browser: headless Chromium (Debian's chromium)
// driven by puppeteer-core loads the page from fts-serve on an ephemeral
// loopback port, types queries, and checks the DOM: results and highlights
// against the JSON API, paging, a document title that is HTML shown as text,
// a javascript: url not made a link, an invalid query shown with its
// position, and no request leaving the server (the page works offline).
// Saves a screenshot beside the test output. Exit 77 (ctest: skipped) only
// when Chromium cannot start, and never under CI=true.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { check, launchBrowser, makeIndex, outputDir, run, startServer } from './harness.mjs';

async function searchFor(page, query) {
  await page.$eval('#q', (el) => { el.value = ''; });
  await page.type('#q', query);
  await page.keyboard.press('Enter');
  // Wait for this search to be rendered: the previous one's results and
  // summary are still on the page until then.
  await page.waitForFunction((want) => document.body.dataset.shown === want, {},
    JSON.stringify({ q: query, offset: 0 }));
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fts-browser-'));
  const profile = path.join(tmp, 'profile');
  fs.mkdirSync(profile);
  fs.mkdirSync(outputDir, { recursive: true });
  const index = makeIndex(tmp, [
    ['<script>alert(1)</script>', 'https://example.org/xss', 'A zebrafinch title written as markup <b>bold</b>.'],
    ['<img src=x onerror=alert(3)>', 'javascript:alert(2)', 'A zebrafinch whose url is a script.'],
  ]);
  const { proc, base } = await startServer(index);
  let browser;
  try {
    browser = await launchBrowser(profile, { args: ['--headless'] });
    const page = await browser.newPage();
    await page.setViewport({ width: 1000, height: 900 });
    const dialogs = [];
    page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
    const foreign = [];
    await page.setRequestInterception(true);
    page.on('request', (r) => {
      if (r.url().startsWith(base + '/')) r.continue(); else { foreign.push(r.url()); r.abort(); }
    });
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));

    await page.goto(base + '/', { waitUntil: 'load' });
    check(await page.$eval('#hints', (el) => el.textContent.includes('title:') && el.textContent.includes('"wild cat"')),
      'the page shows title: and phrase hints');

    // A query: results and highlights as the API gives them.
    await searchFor(page, 'cat');
    const api = await (await fetch(`${base}/search?q=cat&limit=10`)).json();
    const shown = await page.$$eval('#results li.hit', (items) => items.map((li) => ({
      title: li.querySelector('.title').textContent,
      href: li.querySelector('.title').getAttribute('href'),
      marks: [...li.querySelectorAll('.snippet mark')].map((m) => m.textContent),
      snippet: li.querySelector('.snippet') ? li.querySelector('.snippet').textContent : '',
    })));
    check(shown.length === api.hits.length && shown.length === 10, `10 results shown (${shown.length})`);
    check(shown.every((s, i) => s.title === api.hits[i].title && s.href === api.hits[i].url),
      'titles and links in the API order');
    check(shown.every((s, i) => s.snippet === api.hits[i].snippet), 'snippets as the API gives them');
    const marks = shown.flatMap((s) => s.marks);
    const expectedMarks = api.hits.flatMap((h) => h.highlights.map(([b, e]) =>
      new TextDecoder().decode(new TextEncoder().encode(h.snippet).subarray(b, e))));
    check(marks.length > 0 && JSON.stringify(marks) === JSON.stringify(expectedMarks),
      `highlights marked (${marks.length}: ${[...new Set(marks)].join(', ')})`);
    check(marks.every((m) => m.toLowerCase().startsWith('cat')), 'every highlight is a match of cat');
    const summary = await page.$eval('#summary', (el) => el.textContent);
    check(summary.startsWith(`${api.total_hits} hits (`), `hit count and time shown: "${summary}"`);
    check((await page.url()).includes('q=cat'), 'the query is in the address, so a reload keeps it');
    await page.screenshot({ path: path.join(outputDir, 'search-page.png'), fullPage: true });

    // Paging.
    await page.click('#next');
    await page.waitForFunction(() => document.body.dataset.shown === JSON.stringify({ q: 'cat', offset: 10 }));
    const second = await (await fetch(`${base}/search?q=cat&limit=10&offset=10`)).json();
    const secondTitles = await page.$$eval('#results li.hit .title', (els) => els.map((e) => e.textContent));
    check(JSON.stringify(secondTitles) === JSON.stringify(second.hits.map((h) => h.title)), 'next page shows hits 11-20');
    check(await page.$eval('#results', (ol) => ol.start) === 11, 'numbering continues at 11');

    // A title that is HTML shows as text; a javascript: url is no link.
    await searchFor(page, 'zebrafinch');
    const hostile = await page.$$eval('#results li.hit', (items) => items.map((li) => ({
      title: li.querySelector('.title').textContent,
      tag: li.querySelector('.title').tagName,
      href: li.querySelector('.title').getAttribute('href'),
      elements: li.querySelectorAll('script, img, b').length,
    })));
    const xss = hostile.find((h) => h.title === '<script>alert(1)</script>');
    check(xss && xss.tag === 'A' && xss.href === 'https://example.org/xss', 'the <script> title is shown as text');
    const img = hostile.find((h) => h.title === '<img src=x onerror=alert(3)>');
    check(img && img.tag === 'SPAN' && img.href === null, 'the javascript: url is not a link');
    check(hostile.every((h) => h.elements === 0), 'no element from a document in the page');
    await page.screenshot({ path: path.join(outputDir, 'search-page-xss.png'), fullPage: true });

    // An invalid query: the error and its position.
    await searchFor(page, 'cat AND');
    const error = await page.evaluate(() => ({
      hidden: document.querySelector('#error').hidden,
      message: document.querySelector('#error-message').textContent,
      caret: document.querySelector('#error-caret').textContent,
      results: document.querySelectorAll('#results li').length,
      pager: getComputedStyle(document.querySelector('#pager')).display,
    }));
    check(!error.hidden && error.message.includes('position 4'), `the error is shown: "${error.message}"`);
    check(error.caret === 'cat AND\n    ^', 'a caret under position 4');
    check(error.results === 0 && error.pager === 'none', 'no stale results or pager beside the error');
    await page.screenshot({ path: path.join(outputDir, 'search-page-error.png'), fullPage: true });

    check(dialogs.length === 0, `no script from a document ran (dialogs: ${dialogs.join(', ')})`);
    check(foreign.length === 0, `no request left the server (${foreign.join(', ')})`);
    check(pageErrors.length === 0, `no script errors (${pageErrors.join('; ')})`);
    console.log(`screenshots in ${outputDir}`);
  } finally {
    if (browser) await browser.close();
    proc.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

run(main);
