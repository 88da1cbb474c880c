/**
 * Measures the built SPA in headless Chromium (numbers for docs/performance.md):
 *   1. the JavaScript the sign-in page downloads, and that none of it is admin/editor code;
 *   2. the admin alert list with 10,000 alerts: first render, search keystrokes, status chips, paging.
 * The API is answered inside the browser (Playwright request interception), so only the client is
 * measured. Run after `npm run build -w client`:
 *   node client/scripts/measure-performance.mjs        (CHROMIUM_PATH defaults to /usr/bin/chromium)
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.MEASURE_PORT ?? 4179);
const base = `http://127.0.0.1:${port}`;
const ALERTS = 10_000;
/** Text that exists only in the admin and editor screens; none of it may reach /login. */
const adminMarkers = [
  'Template Administration',
  'Save template',
  'Web Proxy Management',
  'Register proxy',
  'Create an alert',
  'Alerts (Admin)',
];

function startPreview() {
  const child = spawn(
    'npx',
    ['vite', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
    {
      cwd: clientDir,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      if (String(chunk).includes(String(port))) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`vite preview exited with ${code}`)));
  });
}

function syntheticAlerts() {
  const statuses = ['ACTIVE', 'FIRING', 'BOOKED', 'PASSED', 'ERROR'];
  return Array.from({ length: ALERTS }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    status: statuses[i % statuses.length],
    title: `Trip ${i}`,
    templateId: 't',
    template: { name: `Resort ${i % 40}`, defaultQuery: { startDate: '2026-06-01', endDate: '2026-06-05' } },
    partyName: `Family ${i % 700}`,
    tags: [`tag${i % 13}`],
    user: { email: `owner${i % 300}@example.com`, name: `Owner ${i % 300}` },
    notificationServices: [{ notificationServiceId: 's' }],
  }));
}

const user = { id: 'u-admin', name: 'Measure Admin', email: 'admin@example.com', roles: ['user', 'admin'] };
const answers = {
  'users.me': { user, notificationServices: [], registrations: [] },
  'adminAlerts.list': syntheticAlerts(),
};

async function answerTrpc(route) {
  const url = new URL(route.request().url());
  const paths = url.pathname.replace('/trpc/', '').split(',');
  const body = paths.map((p) =>
    p in answers
      ? { result: { data: answers[p] } }
      : {
          error: {
            message: `No answer for ${p}`,
            code: -32004,
            data: { code: 'NOT_FOUND', httpStatus: 404 },
          },
        },
  );
  await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
}

async function measureLogin(browser) {
  const page = await browser.newPage();
  const scripts = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body();
    scripts.push({
      url: new URL(response.url()).pathname,
      raw: body.length,
      gzip: gzipSync(body).length,
      body,
    });
  });
  await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.close();
  const leaked = scripts.filter((s) => adminMarkers.some((m) => s.body.includes(m))).map((s) => s.url);
  return {
    files: scripts.length,
    raw: scripts.reduce((n, s) => n + s.raw, 0),
    gzip: scripts.reduce((n, s) => n + s.gzip, 0),
    chunks: scripts.map(({ url, raw, gzip }) => ({ url, raw, gzip })),
    leaked,
  };
}

/**
 * Runs an action inside the page and resolves when `text` is on screen: performance.now() from
 * the action to the first animation frame that shows it (`done`), and to the first frame at all
 * (`firstFrame`: how long the page could not paint, e.g. the typed character). No Playwright round
 * trips inside the measured span.
 */
function timed(page, action, text) {
  return page.evaluate(
    ({ action, text }) =>
      new Promise((resolve) => {
        const t0 = performance.now();
        if (action.type === 'type') {
          const input = document.querySelector('input[aria-label="Search alerts"]');
          const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
          setter.call(input, action.value);
          input.dispatchEvent(new Event('input', { bubbles: true }));
        } else {
          const target = [...document.querySelectorAll(action.selector)].find(
            (el) => el.textContent.trim() === action.text,
          );
          target.click();
        }
        let firstFrame = null;
        const check = () => {
          firstFrame ??= performance.now() - t0;
          const count = document.querySelector('[data-testid="alert-count"]')?.textContent ?? '';
          if (count.includes(text)) resolve({ done: performance.now() - t0, firstFrame });
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    { action, text },
  );
}

async function timedDone(page, action, text) {
  return (await timed(page, action, text)).done;
}

function countMatching(term) {
  return answers['adminAlerts.list'].filter((a) =>
    [a.title, a.template.name, a.id, a.partyName, ...a.tags].some((v) => v.toLowerCase().includes(term)),
  ).length;
}

async function measureAdminList(browser) {
  const page = await browser.newPage();
  await page.route('**/trpc/**', answerTrpc);
  await page.addInitScript(
    (session) => {
      localStorage.setItem('resort-alerts.session', JSON.stringify(session));
    },
    { tokens: { accessToken: 'measure', expiresIn: 900, expiresAt: Date.now() + 3_600_000 }, user },
  );
  const start = Date.now();
  await page.goto(`${base}/admin/alerts`);
  await page.getByText(`Showing 1–50 of ${ALERTS}`, { exact: true }).waitFor();
  const firstRender = Date.now() - start;
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  });
  // Each term replaces the search text (as a paste would) and yields a different count.
  const keystrokes = [];
  for (const term of ['tag1', 'tag12', 'resort 3', 'family 5', 'trip 99', 'trip 999']) {
    keystrokes.push(await timed(page, { type: 'type', value: term }, `of ${countMatching(term)}`));
  }
  await timedDone(page, { type: 'type', value: '' }, `Showing 1–50 of ${ALERTS}`);
  const passed = answers['adminAlerts.list'].filter((a) => a.status === 'PASSED').length;
  const chip = await timedDone(
    page,
    { type: 'click', selector: 'label', text: `Passed (${passed})` },
    `Showing 1–50 of ${passed}`,
  );
  const paging = [];
  for (let p = 2; p <= 5; p += 1) {
    const from = (p - 1) * 50 + 1;
    paging.push(
      await timedDone(
        page,
        { type: 'click', selector: 'button', text: String(p) },
        `Showing ${from}–${from + 49} of ${passed}`,
      ),
    );
  }
  const longTasks = await page.evaluate(() => window.__longTasks);
  await page.close();
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return {
    firstRender,
    keystrokeMedian: median(keystrokes.map((k) => k.done)),
    keystrokeMax: Math.max(...keystrokes.map((k) => k.done)),
    keystrokeFrameMedian: median(keystrokes.map((k) => k.firstFrame)),
    keystrokeFrameMax: Math.max(...keystrokes.map((k) => k.firstFrame)),
    chip,
    paging: Math.max(...paging),
    pagingAll: paging,
    longTaskMax: longTasks.length ? Math.max(...longTasks) : 0,
    longTaskCount: longTasks.length,
  };
}

const preview = await startPreview();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  const login = await measureLogin(browser);
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`/login initial JS: ${login.files} files, ${kb(login.raw)} raw, ${kb(login.gzip)} gzip`);
  for (const c of login.chunks) console.log(`  ${c.url}  ${kb(c.raw)} raw, ${kb(c.gzip)} gzip`);
  console.log(`admin/editor code on /login: ${login.leaked.length ? login.leaked.join(', ') : 'none'}`);
  const list = await measureAdminList(browser);
  const ms = (n) => `${Math.round(n)} ms`;
  console.log(`admin alert list, ${ALERTS} alerts:`);
  console.log(`  navigation to first page of rows: ${ms(list.firstRender)}`);
  console.log(
    `  search → next frame: median ${ms(list.keystrokeFrameMedian)}, max ${ms(list.keystrokeFrameMax)}`,
  );
  console.log(`  search → updated list: median ${ms(list.keystrokeMedian)}, max ${ms(list.keystrokeMax)}`);
  console.log(
    `  status chip → filtered list: ${ms(list.chip)}; next page (worst of 4): ${ms(list.paging)} [${list.pagingAll.map(ms).join(', ')}]`,
  );
  console.log(`  long tasks during interaction: ${list.longTaskCount}, longest ${ms(list.longTaskMax)}`);
  if (login.leaked.length) process.exitCode = 1;
} finally {
  await browser.close();
  preview.kill();
}
