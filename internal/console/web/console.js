// webgate console: fills the server-rendered views from /console/api/.
// No framework and no build step. Every value from the server is written
// with textContent (never innerHTML), and the page's CSP forbids inline
// code, so web content shown here cannot run.
'use strict';
(function () {
  const KEY = 'webgate.console.key';
  const VIEWS = ['status', 'playground', 'audit', 'setup'];
  const $ = (id) => document.getElementById(id);
  let session = null;
  let statusTimer = null;

  // --- API ------------------------------------------------------------

  class APIError extends Error {
    constructor(status, type, message) { super(message); this.status = status; this.type = type; }
  }

  // api calls the console API with the key from session storage as a
  // bearer header (never in the URL). A 401 sends the person to sign in.
  async function api(path, body) {
    const headers = { 'Accept': 'application/json' };
    const key = sessionStorage.getItem(KEY);
    if (key) headers['Authorization'] = 'Bearer ' + key;
    const init = { headers, credentials: 'omit', cache: 'no-store' };
    if (body !== undefined) {
      init.method = 'POST';
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let resp;
    try {
      resp = await fetch(path, init);
    } catch (e) {
      throw new APIError(0, 'network', 'The server did not answer (' + e.message + ').');
    }
    let data = null;
    try { data = await resp.json(); } catch (e) { /* not JSON */ }
    if (!resp.ok) {
      const err = (data && data.error) || {};
      const e = new APIError(resp.status, err.type || 'http_' + resp.status, err.message || resp.statusText);
      if (resp.status === 401) showSignin(key ? 'That key was not accepted: ' + e.message : '');
      throw e;
    }
    return data;
  }

  function describe(e) {
    if (e.type === 'forbidden_origin') return e.message + '. Add this page\'s origin to server.allowed_origins.';
    return e.message + (e.type && e.status ? ' (' + e.status + ' ' + e.type + ')' : '');
  }

  // --- helpers ----------------------------------------------------------

  function el(tag, attrs, ...children) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') n.textContent = v; else n.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) n.append(c);
    return n;
  }
  const fmtMS = (v) => !v ? '–' : v < 10 ? v.toFixed(1) + ' ms' : Math.round(v) + ' ms';
  const pct = (v) => (v * 100).toFixed(v > 0 && v < 0.1 ? 1 : 0) + '%';
  const num = (v, d) => (v === undefined || v === null) ? '–' : Number(v).toFixed(d || 0);
  function dur(seconds) {
    seconds = Math.max(0, Math.round(seconds));
    if (seconds < 90) return seconds + ' s';
    if (seconds < 5400) return Math.round(seconds / 60) + ' min';
    if (seconds < 172800) return (seconds / 3600).toFixed(1) + ' h';
    return Math.round(seconds / 86400) + ' days';
  }
  const cell = (text, cls) => el('td', { class: cls, text: String(text) });
  function setError(id, e) { $(id).textContent = e ? describe(e) : ''; }
  function busy(form, on) { for (const b of form.querySelectorAll('button')) b.disabled = on; form.setAttribute('aria-busy', on ? 'true' : 'false'); }

  // --- views and sign-in ------------------------------------------------

  function currentView() {
    const v = location.hash.slice(1);
    return VIEWS.includes(v) ? v : 'status';
  }

  function show(view, focus) {
    for (const s of document.querySelectorAll('main > section.view')) s.hidden = s.id !== view;
    for (const a of document.querySelectorAll('.top nav a')) {
      if (a.getAttribute('href') === '#' + view) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    }
    if (focus) { const h = $(view).querySelector('h1'); if (h) { h.tabIndex = -1; h.focus(); } }
    document.title = (view === 'signin' ? 'Sign in' : view[0].toUpperCase() + view.slice(1)) + ' · webgate console';
  }

  function showSignin(message) {
    session = null;
    stopStatus();
    $('who').hidden = true;
    show('signin', true);
    $('signin-error').textContent = message || '';
    $('signin-key').focus();
  }

  async function start(focus) {
    try {
      session = await api('/console/api/session');
    } catch (e) {
      if (e.status === 403 && e.type === 'surface_not_allowed') {
        // A valid key whose policy keeps it off the console.
        sessionStorage.removeItem(KEY);
        showSignin(describe(e));
      } else if (e.status !== 401) {
        const g = $('global-error'); g.textContent = describe(e); g.hidden = false;
      }
      return;
    }
    $('global-error').hidden = true;
    $('who').hidden = !session.auth;
    $('who-text').textContent = session.auth ? 'Key: ' + session.key_id + (session.operator ? ' (operator)' : '') : '';
    route(focus);
  }

  function route(focus) {
    if (!session) return;
    const view = currentView();
    show(view, focus);
    stopStatus();
    if (view === 'status') startStatus();
    if (view === 'audit') loadAudit();
    if (view === 'setup' && !$('setup-out').hasChildNodes()) loadSetup();
    if (view === 'playground' && $('search-provider').options.length === 1) loadProviders();
  }

  $('signin-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const key = $('signin-key').value.trim();
    if (!key) return;
    sessionStorage.setItem(KEY, key);
    $('signin-key').value = '';
    start(true);
  });
  $('signout').addEventListener('click', () => {
    sessionStorage.removeItem(KEY);
    showSignin('Signed out. The key was removed from this tab.');
  });
  window.addEventListener('hashchange', () => route(true));

  // --- status -------------------------------------------------------------

  function startStatus() {
    loadStatus();
    statusTimer = setInterval(() => { if (!document.hidden) loadStatus(); }, 10000);
  }
  function stopStatus() { if (statusTimer) clearInterval(statusTimer); statusTimer = null; }
  $('status-refresh').addEventListener('click', loadStatus);

  async function loadStatus() {
    let s;
    try { s = await api('/console/api/status'); } catch (e) { $('status-meta').textContent = describe(e); return; }
    $('status-meta').textContent = 'webgate ' + s.version + ', up ' + dur(s.uptime_seconds) + '. Updated ' +
      new Date(s.time).toLocaleTimeString() + '; refreshes every 10 s while this view is open.';
    fillProviders(s.providers || []);
    fillSurfaces(s.surfaces || []);
    fillCaches(s.caches || []);
    const extra = [];
    if (s.redis && s.redis.configured) extra.push('Redis: ' + (s.redis.up ? 'up' : 'DOWN' + (s.redis.last_error ? ' (' + s.redis.last_error + ')' : '')));
    else extra.push('Redis: not configured (single replica).');
    extra.push('Streams in progress: ' + s.active_streams + '.');
    extra.push('Fetched in the last hour: ' + (s.fetch_bytes / 1048576).toFixed(1) + ' MiB.');
    $('status-extra').textContent = extra.join(' ');
  }

  function quotaState(p) {
    const bits = [];
    if (p.state === 'open' && p.open_until) bits.push('breaker open for ' + dur((Date.parse(p.open_until) - Date.now()) / 1000));
    if (p.retry_after) bits.push('asked to wait ' + dur(p.retry_after / 1e9));
    if (p.last_error_kind === 'quota') bits.push('quota exhausted');
    if (p.last_error_kind === 'rate_limited') bits.push('rate limited');
    return bits.length ? bits.join('; ') : 'ok';
  }

  function fillProviders(list) {
    const tb = document.querySelector('#providers-table tbody');
    tb.replaceChildren(...list.map((p) => el('tr', {},
      el('th', { scope: 'row', text: p.name }),
      el('td', { class: 'state state-' + (p.state || 'none'), text: p.state || 'not in chain' }),
      cell(p.recent.count ? pct(p.recent.error_rate) + ' of ' + p.recent.count : 'no calls', 'num'),
      cell(fmtMS(p.recent.p50_ms || p.hour.p50_ms), 'num'),
      cell(fmtMS(p.recent.p95_ms || p.hour.p95_ms), 'num'),
      cell(p.hour.count, 'num'),
      cell(quotaState(p)),
      cell(p.last_error ? p.last_error + ' (' + new Date(p.last_error_at).toLocaleTimeString() + ')' : '–', 'wrap'))));
    if (!list.length) tb.append(el('tr', {}, el('td', { colspan: '8', text: 'No providers configured.' })));
    const charts = $('provider-charts');
    charts.replaceChildren(...list.map((p) => chart(p.name + ': latency (ms) per minute',
      p.points, [['p50', (x) => x.p50_ms], ['p95', (x) => x.p95_ms]], 'ms')));
  }

  function fillSurfaces(list) {
    const tb = document.querySelector('#surfaces-table tbody');
    tb.replaceChildren(...list.map((s) => el('tr', {},
      el('th', { scope: 'row', text: surfaceName(s.name) }),
      cell(num(s.recent.per_minute, 1), 'num'), cell(s.hour.count, 'num'), cell(s.hour.errors, 'num'),
      cell(fmtMS(s.hour.p50_ms), 'num'), cell(fmtMS(s.hour.p95_ms), 'num'))));
    $('surface-charts').replaceChildren(chart('Requests per minute, by surface', null,
      list.map((s) => [surfaceName(s.name), null, s.points]), 'requests', (x) => x.count));
  }

  function surfaceName(n) {
    return { api: 'JSON API', mcp: 'MCP', messages: 'Messages proxy', console: 'Console', ops: 'Operations', other: 'Other' }[n] || n;
  }

  function fillCaches(list) {
    const tb = document.querySelector('#caches-table tbody');
    tb.replaceChildren(...list.map((c) => el('tr', {},
      el('th', { scope: 'row', text: c.name }),
      cell(c.hits + c.misses ? pct(c.hit_ratio) : 'no lookups', 'num'), cell(c.hits, 'num'), cell(c.misses, 'num'),
      cell((c.tiers || []).map((t) => t.tier + ' ' + t.hits + '/' + (t.hits + t.misses)).join(', ') || '–'))));
    $('cache-charts').replaceChildren(...list.map((c) => chart(c.name + ' cache: lookups per minute', c.points,
      [['hits', (x) => x.hits], ['misses', (x) => x.misses]], 'lookups')));
  }

  // chart draws up to four series over the last hour as an SVG line
  // chart. series are [label, accessor] over points, or [label, null,
  // points] with a shared accessor. Its text alternative states the
  // figures a sighted reader would take from it.
  function chart(title, points, series, unit, shared) {
    const W = 300, H = 90, P = 4;
    const lines = series.map(([label, acc, own]) => ({ label, values: (own || points || []).map(acc || shared) }));
    const max = Math.max(1, ...lines.flatMap((l) => l.values));
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    svg.setAttribute('preserveAspectRatio', 'none');
    svg.setAttribute('role', 'img');
    const summary = lines.map((l) => l.label + ': latest ' + num(l.values[l.values.length - 1] || 0, 1) + ', peak ' + num(Math.max(0, ...l.values), 1)).join('; ');
    svg.setAttribute('aria-label', title + ' over the last hour. ' + summary + ' ' + unit + '.');
    const axis = document.createElementNS(svg.namespaceURI, 'line');
    for (const [k, v] of Object.entries({ x1: 0, x2: W, y1: H - P, y2: H - P, class: 'axis' })) axis.setAttribute(k, v);
    svg.append(axis);
    lines.forEach((l, i) => {
      const n = l.values.length;
      if (!n) return;
      const pts = l.values.map((v, j) => (n === 1 ? 0 : (j * W) / (n - 1)).toFixed(1) + ',' + (H - P - ((v || 0) * (H - 2 * P)) / max).toFixed(1));
      const pl = document.createElementNS(svg.namespaceURI, 'polyline');
      pl.setAttribute('points', pts.join(' '));
      pl.setAttribute('class', 'l' + ((i % 4) + 1));
      svg.append(pl);
    });
    const legend = el('p', { class: 'legend' }, ...lines.map((l, i) => el('span', {}, el('span', { class: 'swatch s' + ((i % 4) + 1) }), l.label)),
      el('span', { text: 'max ' + num(max, max < 10 ? 1 : 0) + ' ' + unit + '; 60 minutes to now' }));
    return el('figure', { class: 'chart' }, el('figcaption', { text: title }), svg, legend);
  }

  // --- playground -------------------------------------------------------

  async function loadProviders() {
    try {
      const s = await api('/console/api/status');
      const sel = $('search-provider');
      for (const p of s.providers || []) if (p.state) sel.append(el('option', { value: p.name, text: p.name }));
    } catch (e) { /* the select keeps "Fallback chain" */ }
  }

  const list = (v) => v.split(',').map((s) => s.trim()).filter(Boolean);

  $('search-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const f = ev.currentTarget;
    const body = { query: $('search-query').value };
    if ($('search-provider').value) body.provider = $('search-provider').value;
    if ($('search-n').value) body.max_results = Number($('search-n').value);
    if (list($('search-allow').value).length) body.allowed_domains = list($('search-allow').value);
    if (list($('search-block').value).length) body.blocked_domains = list($('search-block').value);
    if ($('search-country').value.trim()) body.country = $('search-country').value.trim();
    if ($('search-language').value.trim()) body.language = $('search-language').value.trim();
    if ($('search-freshness').value) body.freshness = $('search-freshness').value;
    if ($('search-content').checked) body.include_content = true;
    setError('search-error', null);
    busy(f, true);
    $('search-meta').textContent = 'Searching…';
    const t0 = performance.now();
    try {
      const r = await api('/console/api/search', body);
      const rt = performance.now() - t0;
      const tried = r.attempts.length ? ' Provider calls: ' + r.attempts.map((a) => a.provider + ' ' + fmtMS(a.took_ms) + (a.error ? ' failed: ' + a.error : ', ' + a.results + ' results')).join('; ') + '.' : '';
      $('search-meta').textContent = r.json.results.length + ' results from ' + r.provider + (r.cached ? ' (cache)' : '') +
        ' in ' + fmtMS(r.took_ms) + ' on the server' + (r.content_ms ? ' (pages fetched in ' + fmtMS(r.content_ms) + ')' : '') +
        ', ' + fmtMS(rt) + ' round trip.' + tried;
      $('search-digest').textContent = r.digest;
      $('search-json').textContent = JSON.stringify(r.json, null, 2);
      $('search-out').hidden = false;
    } catch (e) {
      $('search-meta').textContent = '';
      setError('search-error', e);
    } finally { busy(f, false); }
  });

  $('fetch-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const f = ev.currentTarget;
    setError('fetch-error', null);
    busy(f, true);
    $('fetch-meta').textContent = 'Fetching…';
    const t0 = performance.now();
    try {
      const r = await api('/console/api/fetch', { url: $('fetch-url').value, format: $('fetch-format').value });
      const rt = performance.now() - t0;
      const res = r.result;
      $('fetch-out').hidden = false;
      if (res.error) {
        $('fetch-meta').textContent = '';
        $('fetch-metadata').replaceChildren();
        $('fetch-content').textContent = '';
        $('fetch-raw').textContent = '';
        $('fetch-out').hidden = true;
        setError('fetch-error', new APIError(0, res.error.type, 'Could not fetch: ' + res.error.message + ' (' + res.error.type + ')'));
        return;
      }
      $('fetch-meta').textContent = 'HTTP ' + res.status + ' ' + res.content_type + ', ' + r.total_length + ' characters extracted' +
        (r.cached ? ' (from the page cache)' : ' (fetched directly by webgate)') + ' in ' + fmtMS(r.took_ms) + ' on the server, ' + fmtMS(rt) + ' round trip.' +
        (res.truncated ? ' Content continues at start_index ' + res.next_start_index + '.' : '');
      const md = r.metadata || {};
      const rows = [['Title', res.title || md.title], ['Final URL', res.final_url], ['Author', md.author], ['Published', md.published],
        ['Language', md.language], ['Canonical URL', md.canonical_url], ['Site', md.site_name], ['Description', md.description]];
      if (res.injection) rows.push(['Flagged passages', res.injection.map((x) => x.rule + ': ' + x.excerpt).join(' | ')]);
      $('fetch-metadata').replaceChildren(...rows.filter((x) => x[1]).flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: v })]));
      $('fetch-content').textContent = res.content;
      $('fetch-raw').textContent = r.raw_binary ? '(binary body, ' + r.raw_bytes + ' bytes, not shown)' :
        r.raw_missing ? '(served from the cache, which keeps bodies up to 1 MiB only)' :
          r.raw + (r.raw_truncated ? '\n\n[… first ' + r.raw.length + ' characters of ' + r.raw_bytes + ' bytes shown]' : '');
    } catch (e) {
      $('fetch-meta').textContent = '';
      setError('fetch-error', e);
    } finally { busy(f, false); }
  });

  // --- audit --------------------------------------------------------------

  $('audit-form').addEventListener('submit', (ev) => { ev.preventDefault(); loadAudit(); });

  async function loadAudit() {
    const p = new URLSearchParams();
    for (const [k, id] of [['key', 'audit-key'], ['surface', 'audit-surface'], ['outcome', 'audit-outcome'], ['kind', 'audit-kind'], ['limit', 'audit-limit']]) {
      const v = $(id).value.trim();
      if (v) p.set(k, v);
    }
    setError('audit-error', null);
    let page;
    try { page = await api('/console/api/audit?' + p.toString()); } catch (e) { setError('audit-error', e); return; }
    $('audit-scope').textContent = (page.scope === 'own' ? 'Showing the records of your key only (operators see every key). ' : 'Showing every key\'s records. ') +
      page.records.length + ' record' + (page.records.length === 1 ? '' : 's') + '.';
    const tb = document.querySelector('#audit-table tbody');
    tb.replaceChildren(...page.records.map((r) => el('tr', {},
      cell(new Date(r.time).toLocaleString()), cell(r.key_id || '(none)'), cell(r.surface), cell(r.kind),
      cell(r.kind === 'fetch' ? r.url : r.query, 'wrap'), cell(r.provider || '–'),
      cell(r.kind === 'search' ? r.results : '–', 'num'), cell(fmtMS(r.latency_ms), 'num'),
      el('td', { class: 'outcome-' + r.outcome, text: r.outcome + (r.cached ? ' (cache)' : '') + (r.error ? ': ' + r.error : '') }))));
    if (!page.records.length) tb.append(el('tr', {}, el('td', { colspan: '9', text: 'No records match.' })));
  }

  // --- setup --------------------------------------------------------------

  $('setup-url').value = location.origin + '/mcp';
  $('setup-transport').addEventListener('change', () => { $('setup-url').disabled = $('setup-transport').value !== 'http'; loadSetup(); });
  $('setup-form').addEventListener('submit', (ev) => { ev.preventDefault(); loadSetup(); });

  async function loadSetup() {
    const p = new URLSearchParams({ transport: $('setup-transport').value });
    if (p.get('transport') === 'http') p.set('url', $('setup-url').value);
    setError('setup-error', null);
    let page;
    try { page = await api('/console/api/setup?' + p.toString()); } catch (e) { setError('setup-error', e); return; }
    const out = [];
    if (page.token_env) out.push(el('p', { class: 'notice', text: 'The HTTP snippets read your gateway key from the environment variable ' + page.token_env + ' (export ' + page.token_env + '=<key> before starting the client); the key itself is never written into a config file.' }));
    for (const c of page.clients) {
      const box = el('section', { class: 'client', 'aria-labelledby': 'client-' + c.client }, el('h2', { id: 'client-' + c.client, text: c.client }));
      if (c.error) { box.append(el('p', { text: c.error })); out.push(box); continue; }
      box.append(snippet('Print or write it with webgate', c.cli));
      if (c.command) box.append(snippet('Or with the client\'s own command', c.command));
      for (const f of c.files || []) box.append(snippet('Or merge into ' + f.path, f.snippet));
      for (const n of c.notes || []) box.append(el('p', { class: 'meta', text: 'Note: ' + n }));
      out.push(box);
    }
    $('setup-out').replaceChildren(...out);
  }

  function snippet(label, text) {
    const pre = el('pre', { tabindex: '0', text });
    const btn = el('button', { type: 'button', class: 'copy', text: 'Copy' });
    btn.addEventListener('click', async () => {
      try { await navigator.clipboard.writeText(text); btn.textContent = 'Copied'; } catch (e) { btn.textContent = 'Select and copy'; }
      setTimeout(() => { btn.textContent = 'Copy'; }, 2000);
    });
    return el('div', {}, el('div', { class: 'snippet-head' }, el('p', { text: label }), btn), pre);
  }

  start(false);
})();
