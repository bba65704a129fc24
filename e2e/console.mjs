// Drives webgate's web console in headless Chromium (Debian's chromium
// package through playwright-core; no browser is downloaded) the way a
// person would: sign in with a key, read the status, run a search and a
// fetch in the playground, read the audit and setup views, sign out.
// Run from Go: go test ./e2e -run Console (see console_test.go).
//
// Environment: BASE_URL (the running `webgate serve`), KEY (a gateway
// key), PAGE_URL (a loopback page to fetch), ARTIFACTS (a directory for
// screenshots), CHROMIUM (the browser, default /usr/bin/chromium).
// Prints one JSON line of what it saw; exits non-zero on the first
// failed expectation.
import { chromium } from 'playwright-core';
import path from 'node:path';

const { BASE_URL, KEY, PAGE_URL, ARTIFACTS } = process.env;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const seen = { checks: [], screenshots: [], problems: [] };

function check(ok, what, detail) {
  if (!ok) throw new Error('expectation failed: ' + what + (detail === undefined ? '' : '\n  got: ' + JSON.stringify(detail).slice(0, 2000)));
  seen.checks.push(what);
}

// Every wait is for something a person would see; none is a sleep.
const WAIT = 30000;

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  // Containers run as root without user namespaces: Chromium's sandbox
  // cannot start there. The page is our own, on loopback.
  args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage'],
  timeout: 60000,
});
let exitCode = 0;
try {
  const context = await browser.newContext({ viewport: { width: 1366, height: 860 }, colorScheme: 'light' });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  // A CSP violation, a script error or a failed request is a bug.
  page.on('pageerror', (e) => seen.problems.push('page error: ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !/401 \(Unauthorized\)/.test(m.text())) seen.problems.push('console error: ' + m.text()); });
  page.on('requestfailed', (r) => seen.problems.push('request failed: ' + r.url() + ' ' + (r.failure() || {}).errorText));
  page.on('request', (r) => {
    if (!r.url().startsWith(BASE_URL)) seen.problems.push('request to another origin: ' + r.url());
    if (KEY && r.url().includes(KEY)) seen.problems.push('key in a URL: ' + r.url());
  });

  // 1. The page loads and, with keys configured, asks for one.
  await page.goto(BASE_URL + '/');
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  check(true, 'sign-in form shown');
  // Keyboard users can type the key at once, and the skip link is the
  // first stop in the tab order.
  check(await page.evaluate(() => document.activeElement.id) === 'signin-key', 'key field focused');
  check(await page.evaluate(() => document.querySelector('a, button, input, select').textContent) === 'Skip to content', 'skip link first in tab order');

  // A wrong key is refused with a message.
  await page.getByLabel('Gateway API key').fill('wg_wrong');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('That key was not accepted').waitFor();
  check(true, 'wrong key refused');

  await page.getByLabel('Gateway API key').fill(KEY);
  await page.getByLabel('Gateway API key').press('Enter');

  // 2. Status: the provider from the fake, its breaker closed.
  await page.getByRole('heading', { name: 'Status', level: 1 }).waitFor();
  check(await page.evaluate(() => document.activeElement.id) === 'status-h', 'focus moves to the view after sign-in');
  const providerRow = page.locator('#providers-table tbody tr', { hasText: 'searxng' });
  await providerRow.waitFor();
  check((await providerRow.locator('td').first().textContent()) === 'closed', 'searxng breaker closed');
  check(await page.evaluate((k) => sessionStorage.getItem('webgate.console.key') === k, KEY), 'key kept in sessionStorage');
  check(await page.evaluate(() => document.cookie === ''), 'no cookie set');
  await page.getByText(/Key: e2e-console/).waitFor();

  // 3. Playground search, with provider, domain filter and country.
  await page.getByRole('link', { name: 'Playground' }).click();
  await page.getByRole('heading', { name: 'Playground', level: 1 }).waitFor();
  await page.getByLabel('Query').fill('webgate console test');
  await page.locator('#search-provider option[value="searxng"]').waitFor({ state: 'attached' });
  await page.getByLabel('Provider').selectOption('searxng');
  await page.getByLabel('Results').fill('2');
  await page.getByLabel('Blocked domains').fill('example.org');
  await page.getByLabel('Country').fill('us');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const searchMeta = page.locator('#search-meta', { hasText: 'results from searxng' });
  await searchMeta.waitFor();
  const meta = await searchMeta.textContent();
  check(/^2 results from searxng in [\d.]+ ms on the server, [\d.]+ ms round trip\./.test(meta), 'search timing and provider shown', meta);
  const digest = await page.locator('#search-digest').textContent();
  check(digest.includes('Search results for "webgate console test" (provider: searxng)') && digest.includes('First hit for webgate console test'), 'markdown digest shown', digest);
  check(!digest.includes('Third hit'), 'max results honoured', digest);
  const json = JSON.parse(await page.locator('#search-json').textContent());
  check(json.provider === 'searxng' && json.results.length === 2 && json.results[0].published === '2025-06-01', 'JSON shown', json);
  seen.search = { meta, results: json.results.length };

  // 4. Playground fetch of a loopback page: extracted beside raw, with metadata.
  await page.getByLabel('URL').fill(PAGE_URL);
  await page.getByRole('button', { name: 'Fetch', exact: true }).click();
  const fetchMeta = page.locator('#fetch-meta', { hasText: 'HTTP 200' });
  await fetchMeta.waitFor();
  const fmeta = await fetchMeta.textContent();
  check(/characters extracted \(fetched directly by webgate\) in [\d.]+ ms on the server/.test(fmeta), 'fetch timing shown', fmeta);
  const content = await page.locator('#fetch-content').textContent();
  check(content.includes('SECOND-PART') && !content.includes('Copyright nobody'), 'extracted content without boilerplate', content);
  const raw = await page.locator('#fetch-raw').textContent();
  check(raw.includes('<footer>Copyright nobody</footer>'), 'raw page shown as text', raw);
  const title = await page.locator('#fetch-metadata dt', { hasText: 'Title' }).locator('xpath=following-sibling::dd[1]').textContent();
  check(title === 'Webgate test page', 'metadata title shown', title);
  // The raw HTML is shown, not rendered: its markup made no elements.
  check(await page.locator('#fetch-raw footer').count() === 0, 'raw page not rendered');
  seen.fetch = { meta: fmeta };

  // 4b. A search with include_content: the digest carries the pages, as
  // an agent's web_search with include_content does.
  await page.getByLabel('Query').fill('webgate console content');
  await page.getByLabel('Include page content').check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const contentMeta = page.locator('#search-meta', { hasText: 'pages fetched in' });
  await contentMeta.waitFor();
  const digest2 = await page.locator('#search-digest').textContent();
  check(digest2.includes('Search results for "webgate console content"') && digest2.includes('--- Content of result 1 ---') && digest2.includes('SECOND-PART') &&
    !digest2.includes('Copyright nobody'), 'digest with page content', digest2);
  const shot1 = path.join(ARTIFACTS, 'console-playground.png');
  await page.screenshot({ path: shot1, fullPage: true });
  seen.screenshots.push(shot1);

  // 5. Audit: both operations, on the console surface, under this key.
  await page.getByRole('link', { name: 'Audit' }).click();
  const searchRow = page.locator('#audit-table tbody tr', { hasText: 'webgate console test' });
  await searchRow.waitFor();
  const cells = await searchRow.locator('td').allTextContents();
  check(cells[1] === 'e2e-console' && cells[2] === 'console' && cells[3] === 'search' && cells[5] === 'searxng' && cells[8].startsWith('ok'), 'search audited', cells);
  await page.locator('#audit-table tbody tr', { hasText: PAGE_URL }).first().waitFor();
  check(true, 'fetch audited');
  // The playground's fetch and include_content's two pages.
  await page.getByLabel('Kind').selectOption('fetch');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText(/^Showing every key's records\. 3 records\.$/).waitFor();
  check(true, 'audit filter applied');

  // 6. Setup: snippets for this server with the key read from the environment.
  await page.getByRole('link', { name: 'Setup' }).click();
  await page.getByRole('heading', { name: 'claude-code' }).waitFor();
  const setupText = await page.locator('#setup-out').textContent();
  check(setupText.includes('claude mcp add --scope user --transport http webgate ' + BASE_URL + '/mcp') &&
    setupText.includes('--token-env WEBGATE_TOKEN') && setupText.includes('claude-desktop'), 'setup snippets shown', setupText.slice(0, 600));

  // 7. Status again: the console's own traffic and the provider call count.
  // The tables still hold the first visit's figures until the refresh
  // lands, so wait for the new ones rather than reading at once.
  await page.getByRole('link', { name: 'Status' }).click();
  await page.waitForFunction(() => {
    const row = [...document.querySelectorAll('#providers-table tbody tr')].find((r) => r.textContent.includes('searxng'));
    return row && Number(row.querySelectorAll('td')[4].textContent) >= 1;
  }, null, { timeout: WAIT });
  check(true, 'provider calls counted');
  await page.locator('#surfaces-table tbody tr', { hasText: 'Console' }).waitFor();
  await page.locator('#surface-charts svg[role="img"]').waitFor();
  const shot2 = path.join(ARTIFACTS, 'console-status.png');
  await page.screenshot({ path: shot2, fullPage: true });
  seen.screenshots.push(shot2);

  // 8. Sign out: the key leaves the tab.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  check(await page.evaluate(() => sessionStorage.length === 0), 'sign out clears the key');

  check(seen.problems.length === 0, 'no script errors, CSP violations, failed or foreign requests', seen.problems);
  // The CSP requires Trusted Types: markup cannot be assigned as a string.
  check(await page.evaluate(() => { try { document.body.innerHTML = '<b>x</b>'; return false; } catch (e) { return e instanceof TypeError; } }), 'Trusted Types enforced');
} catch (e) {
  seen.error = String(e && e.stack || e);
  exitCode = 1;
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(seen) + '\n');
process.exit(exitCode);
