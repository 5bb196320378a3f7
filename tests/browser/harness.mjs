// What the browser tests share: the source and build folders, checks that
// count failures, an index of the sample data plus documents of the test's
// own, fts-serve on an ephemeral loopback port, and Debian's chromium
// started by puppeteer-core (exit 77, ctest's skip, only when it cannot
// start, and never under CI=true; see run).
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import puppeteer from 'puppeteer-core';

const here = path.dirname(new URL(import.meta.url).pathname);
export const sourceDir = process.env.FTS_SOURCE_DIR || path.resolve(here, '..', '..');
export const binaryDir = process.env.FTS_BINARY_DIR || path.join(sourceDir, 'build-test');
export const outputDir = process.env.FTS_TEST_OUTPUT || path.join(binaryDir, 'test-output');
export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const SKIP = 77;

let failures = 0;
export function check(condition, what) {
  if (condition) {
    console.log(`ok   ${what}`);
  } else {
    console.log(`FAIL ${what}`);
    failures++;
  }
}

// Where Chromium cannot start: the test ends as skipped once its own
// cleanup (stopping fts-serve, removing its files) has run.
class Skip extends Error {}

// Runs a test's main: exit 0 when every check passed, 1 on a failed check
// or an error, 77 (skipped) when Chromium cannot start.
export function run(main) {
  main().then(() => {
    if (failures) {
      console.log(`${failures} check(s) failed`);
      process.exit(1);
    }
  }, (e) => {
    if (e instanceof Skip) {
      console.log(`SKIP: ${e.message}`);
      process.exit(SKIP);
    }
    console.log(`FAIL ${e.stack || e}`);
    process.exit(1);
  });
}

export function escapeXml(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// docs: [title, url, abstract] each, added after data/sample.xml.
export function makeIndex(tmp, docs) {
  const extra = path.join(tmp, 'extra.xml');
  fs.writeFileSync(extra, '<feed>\n' + docs.map(([t, u, a]) =>
    `<doc><title>Wikipedia: ${escapeXml(t)}</title><url>${escapeXml(u)}</url>` +
    `<abstract>${escapeXml(a)}</abstract><links></links></doc>\n`).join('') + '</feed>\n');
  const index = path.join(tmp, 'index');
  execFileSync(path.join(binaryDir, 'fts-index'),
    ['build', '--index', index, path.join(sourceDir, 'data', 'sample.xml'), extra], { stdio: 'ignore' });
  return index;
}

// Resolves to { proc, base } once fts-serve prints where it listens (a free
// port of host, a loopback address).
export function startServer(index, args = [], host = '127.0.0.1') {
  const proc = spawn(path.join(binaryDir, 'fts-serve'),
    ['--index', index, '--listen', `${host}:0`, '--access-log', 'none', ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: proc.stdout });
    lines.once('line', (line) => {
      const m = /listening on (http:\/\/127\.\d+\.\d+\.\d+:\d+)\//.exec(line);
      if (m) resolve({ proc, base: m[1] }); else reject(new Error(`fts-serve did not start: ${line}`));
    });
    proc.once('exit', (code) => reject(new Error(`fts-serve exited with ${code}`)));
  });
}

// Stops a server and resolves once it has exited.
export function stopServer(proc) {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

// extension: a folder loaded unpacked, the only extension allowed to run.
export async function launchBrowser(profile, { args = [], headless = true, extension = null } = {}) {
  const extensionArgs = extension ? [`--load-extension=${extension}`, `--disable-extensions-except=${extension}`] : [];
  try {
    return await puppeteer.launch({
      executablePath: chromiumPath,
      headless,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
        `--user-data-dir=${profile}`, ...extensionArgs, ...args],
      ignoreDefaultArgs: extension ? ['--disable-extensions'] : [],
      userDataDir: profile,
      timeout: 30000,
    });
  } catch (e) {
    if (process.env.CI === 'true') throw e;
    throw new Skip(`Chromium (${chromiumPath}) cannot start here: ${e.message.split('\n')[0]}`);
  }
}
