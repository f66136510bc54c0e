'use strict';
const KEY = document.querySelector('meta[name="stubd-ui-key"]').content;
const WRITES = document.querySelector('meta[name="stubd-writes"]').content === 'on';
const LIMIT = 2000;
const state = { entries: [], bySequence: new Map(), selected: null, paused: false, queued: [], lastId: 0, failures: 0, polling: null, routes: [], dropped: 0 };
let token = sessionStorage.getItem('stubd-admin-token');
const $ = (id) => document.getElementById(id);

// ---- admin API ---------------------------------------------------------------------------------
class NeedsToken extends Error {}
function headers(extra) {
  const h = Object.assign({ 'X-Stubd-UI': KEY }, extra || {});
  if (token) h['Authorization'] = 'Bearer ' + token;
  return h;
}
async function api(method, path, body, session) {
  const extra = {};
  if (body !== undefined) extra['Content-Type'] = 'application/json';
  if (session) extra['X-Stubd-Session'] = session;
  const response = await fetch('/__stubd/' + path, { method, headers: headers(extra), body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.status === 401) { askForToken(token ? 'That token was refused.' : ''); throw new NeedsToken(); }
  if (response.status === 403) staleKey();
  const text = await response.text();
  let json = null;
  try { json = JSON.parse(text); } catch (e) { /* not JSON */ }
  return { status: response.status, json, text };
}
function askForToken(message) {
  $('token-bar').classList.add('shown');
  $('token-error').textContent = message || '';
  setStatus('needs the admin token');
}
$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  token = $('token-input').value.trim();
  sessionStorage.setItem('stubd-admin-token', token);
  $('token-bar').classList.remove('shown');
  start();
});

// ---- the request list ---------------------------------------------------------------------------
function setStatus(text, live, down) {
  $('status').textContent = text;
  $('status').className = live ? 'live' : (down ? 'down' : '');
  // Controls that call stubd are off while it does not answer, and back as they were after.
  document.body.classList.toggle('offline', Boolean(down));
  for (const control of document.querySelectorAll('.needs-server')) {
    if (down && !('wasDisabled' in control.dataset)) {
      control.dataset.wasDisabled = control.disabled ? '1' : '';
      control.disabled = true;
    } else if (!down && 'wasDisabled' in control.dataset) {
      control.disabled = control.dataset.wasDisabled === '1';
      delete control.dataset.wasDisabled;
    }
  }
}
// Enables or disables a server control, keeping it off while stubd does not answer.
function setEnabled(control, enabled) {
  if ('wasDisabled' in control.dataset) control.dataset.wasDisabled = enabled ? '' : '1';
  else control.disabled = !enabled;
}
function kind(entry) {
  if (entry.matched) return 'route';
  if (entry.nearMiss && entry.nearMiss.startsWith('proxied to')) return 'proxied';
  return 'missed';
}
function answeredBy(entry) {
  const k = kind(entry);
  if (k === 'route') return entry.route || entry.routeId;
  return k === 'proxied' ? (state.recording ? 'RECORDED' : 'PROXY') : 'MISS';
}
// A no-byte fault step goes out as a response no client re-sends (docs/FAULTS.md).
const FAULT_SENT_AS = {
  beforeStatus: ' (a sequence step: sent as a 502 head with two lengths, which no client re-sends)',
  cutShort: ' (a sequence step: sent as a response cut short, which no client re-sends)',
};
function faultLine(entry) {
  return 'fault: ' + entry.fault + (FAULT_SENT_AS[entry.faultSentAs] || ' (no response)');
}
function outcome(entry) { return entry.fault ? 'fault:' + entry.fault : String(entry.status); }
function add(entry) {
  if (state.bySequence.has(entry.sequence)) return;
  state.bySequence.set(entry.sequence, entry);
  state.entries.push(entry);
  state.lastId = Math.max(state.lastId, entry.sequence);
  if (state.entries.length > LIMIT) {
    state.bySequence.delete(state.entries.shift().sequence);
    state.dropped += 1;
  }
}
function receive(entry) {
  if (state.paused) { state.queued.push(entry); updatePause(); return; }
  add(entry);
  scheduleRender();
}
// One render per animation frame, however many entries arrived in it: a burst of requests costs
// one list update per frame, not one per request.
let renderPending = false;
function scheduleRender() {
  if (renderPending) return;
  renderPending = true;
  requestAnimationFrame(() => { renderPending = false; renderRequests(); });
}
function filters() {
  return { method: $('f-method').value, path: $('f-path').value.trim(), status: $('f-status').value.trim().toLowerCase(),
           kind: $('f-kind').value, route: $('f-route').value.trim(), session: $('session').value.trim() };
}
function accepts(entry, f) {
  if (f.method && entry.method !== f.method) return false;
  if (f.path && !entry.url.includes(f.path)) return false;
  if (f.status) {
    const text = outcome(entry).toLowerCase();
    if (f.status.endsWith('xx') ? text[0] !== f.status[0] : !text.startsWith(f.status)) return false;
  }
  if (f.kind === 'matched' && !entry.matched) return false;
  if (f.kind && f.kind !== 'matched' && kind(entry) !== f.kind) return false;
  if (f.route && !String(entry.route || '').includes(f.route) && entry.routeId !== f.route) return false;
  if (f.session && (entry.session || '') !== f.session) return false;
  return true;
}
function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
  return td;
}
function statusClass(entry) {
  if (entry.fault) return 'status fault';
  return 'status s' + String(entry.status)[0] + 'xx';
}
// The list is virtual: only the rows in view (and a few around them) are in the document, between
// two spacer rows that keep the scroll height; rows have one fixed height (the path is cut with
// an ellipsis, whole in its title and in the detail).
const ROW = 28;
let shownEntries = [];
function renderRequests() {
  const f = filters();
  const body = $('requests').tBodies[0];
  shownEntries = state.entries.filter((e) => accepts(e, f)).reverse();
  const box = $('requests-box');
  const first = Math.max(0, Math.floor(box.scrollTop / ROW) - 10);
  const last = Math.min(shownEntries.length, first + Math.ceil((box.clientHeight || 600) / ROW) + 20);
  const rows = [];
  const spacer = (height) => { const tr = document.createElement('tr'); tr.className = 'spacer'; tr.style.height = height + 'px'; return tr; };
  rows.push(spacer(first * ROW));
  for (let index = first; index < last; index++) {
    const entry = shownEntries[index];
    const row = document.createElement('tr');
    row.dataset.sequence = entry.sequence;
    row.setAttribute('role', 'row');
    row.setAttribute('aria-selected', state.selected === entry.sequence ? 'true' : 'false');
    if (state.selected === entry.sequence) row.className = 'selected';
    cell(row, new Date(entry.time).toLocaleTimeString());
    cell(row, entry.method);
    // Through the forward proxy: the host the client asked for, before the path.
    const target = (entry.server || '') + entry.url;
    cell(row, target, 'path').title = target;
    cell(row, outcome(entry), statusClass(entry));
    const by = answeredBy(entry);
    cell(row, by, kind(entry) === 'route' ? 'hit' : by);
    cell(row, String(entry.latencyMs), 'optional');
    cell(row, entry.session || '', 'optional');
    // The connection, the request's place on it, and `h2` for a request over HTTP/2.
    const over = entry.protocol === 'h2' ? ' h2' : '';
    cell(row, entry.connection ? entry.connection + '#' + entry.connectionRequest + over : '', 'optional');
    rows.push(row);
  }
  rows.push(spacer((shownEntries.length - last) * ROW));
  body.replaceChildren(...rows);
  // A selected request the filter now hides is no longer shown beside the list.
  if (state.selected !== null && !shownEntries.some((e) => e.sequence === state.selected)) {
    state.selected = null;
    $('detail').hidden = true;
  }
  const hidden = state.entries.length - shownEntries.length;
  // Older rows leave the page past LIMIT: said, with where they still are, never silently.
  const notes = [];
  if (hidden > 0) notes.push(hidden + ' hidden by the filter');
  if (state.dropped > 0) notes.push(state.dropped.toLocaleString() + ' older requests left this page (it keeps the last ' + LIMIT.toLocaleString() +
                                    '; the journal keeps --journal-size: GET /__stubd/requests)');
  $('hidden-count').textContent = notes.join(' · ');
  $('empty').hidden = state.entries.length > 0;
}
$('requests-box').addEventListener('scroll', scheduleRender);
$('requests').tBodies[0].addEventListener('click', (event) => {
  const row = event.target.closest('tr[data-sequence]');
  if (row) select(Number(row.dataset.sequence));
});
// Keyboard: the list takes focus (Tab); arrow keys move the selection, Enter or Space opens it.
$('requests-box').addEventListener('keydown', (event) => {
  if (!['ArrowDown', 'ArrowUp', 'Home', 'End', 'Enter', ' '].includes(event.key) || shownEntries.length === 0) return;
  event.preventDefault();
  let index = shownEntries.findIndex((e) => e.sequence === state.selected);
  if (event.key === 'ArrowDown') index = Math.min(shownEntries.length - 1, index + 1);
  else if (event.key === 'ArrowUp') index = Math.max(0, index < 0 ? 0 : index - 1);
  else if (event.key === 'Home') index = 0;
  else if (event.key === 'End') index = shownEntries.length - 1;
  else if (index < 0) index = 0;
  const box = $('requests-box');
  const top = index * ROW;
  if (top < box.scrollTop) box.scrollTop = top;
  else if (top + ROW > box.scrollTop + box.clientHeight) box.scrollTop = top + ROW - box.clientHeight;
  select(shownEntries[index].sequence);
});
for (const id of ['f-method', 'f-path', 'f-status', 'f-kind', 'f-route', 'session']) {
  $(id).addEventListener('input', scheduleRender);
}
function updatePause() {
  $('pause').textContent = state.paused ? 'Resume (' + state.queued.length + ' new)' : 'Pause';
}
$('pause').addEventListener('click', () => {
  state.paused = !state.paused;
  if (!state.paused) { state.queued.forEach(add); state.queued = []; scheduleRender(); }
  updatePause();
});

// ---- live updates: SSE over fetch, else polling -------------------------------------------------
async function load() {
  const answer = await api('GET', 'requests');
  if (answer.json && answer.json.requests) answer.json.requests.forEach(add);
  renderRequests();
}
async function stream() {
  // Whether stubd answered this time: a stream it answers but cannot hold (a proxy in between)
  // counts toward polling; a stubd that is down or restarting does not — the page keeps saying
  // "disconnected" and tries again every second.
  let answered = false;
  try {
    if (state.disconnected) await resync();
    answered = true;
    const extra = state.lastId ? { 'Last-Event-ID': String(state.lastId) } : {};
    const response = await fetch('/__stubd/events?websockets=live', { headers: headers(extra), cache: 'no-store' });
    if (response.status === 401) { askForToken(); return; }
    if (response.status === 403) staleKey();
    if (!response.ok || !response.body) throw new Error('status ' + response.status);
    state.failures = 0;
    state.disconnected = false;
    setStatus('live', true);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = block.split('\n');
        const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
        if (!data) continue;
        if (lines.includes('event: websocket')) conversationActivity(JSON.parse(data)); else receive(JSON.parse(data));
      }
    }
  } catch (error) {
    if (error instanceof NeedsToken) return;
  }
  state.disconnected = true;
  if (answered && state.failures++ >= 2) { startPolling(); return; }
  setStatus('disconnected: reconnecting…', false, true);
  setTimeout(stream, 1000);
}
// ---- open WebSocket conversations, message by message ---------------------------------------------
// The event stream's `websocket` events: `opened` (with the messages so far), `message`, `closed`
// (the conversation's journal entry follows as an ordinary exchange).
const conversations = new Map();
const MESSAGES_SHOWN = 200;
const CLOCK = { hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3 };
function conversationActivity(event) {
  if (event.kind === 'opened') {
    conversations.set(event.id, { route: event.route, path: event.path, session: event.session || '', opened: Date.parse(event.opened),
                                  messages: event.messages || [] });
  } else if (event.kind === 'message') {
    const open = conversations.get(event.id);
    if (!open) return;
    // An event may repeat a message the opening snapshot already held: kept once.
    const last = open.messages[open.messages.length - 1];
    if (last && last.at === event.message.at && last.from === event.message.from && last.text === event.message.text) return;
    open.messages.push(event.message);
    if (open.messages.length > MESSAGES_SHOWN) open.messages.shift();
  } else if (event.kind === 'closed') {
    conversations.delete(event.id);
  }
  renderConversations();
}
function messageText(message) {
  if (message.text !== undefined) return message.text + (message.size ? ' … (' + message.size + ' bytes)' : '');
  return '(binary, ' + message.size + ' bytes) ' + message.base64;
}
function renderConversations() {
  const session = $('session').value.trim();
  const shown = [...conversations.entries()].filter(([, c]) => !session || c.session === session);
  $('live-sockets').hidden = shown.length === 0;
  $('live-count').textContent = String(shown.length);
  $('live-list').replaceChildren(...shown.map(([id, c]) => {
    const item = document.createElement('li');
    item.dataset.conversation = id;
    const title = document.createElement('div');
    title.className = 'row';
    title.textContent = c.path + ' — ' + c.route + (c.session ? ' — session ' + c.session : '');
    const list = document.createElement('ol');
    list.className = 'messages';
    for (const message of c.messages.slice(-20)) {
      const line = document.createElement('li');
      line.className = message.from;
      // The clock time (as the request list shows it, with milliseconds) and the time since the
      // conversation opened: messages sent at once all read +0.00 s, later ones their delay.
      const stamp = new Date(c.opened + message.at * 1000).toLocaleTimeString(undefined, CLOCK);
      line.textContent = (message.from === 'client' ? '→ ' : '← ') + stamp + ' (+' + message.at.toFixed(2) + ' s)  ' + messageText(message);
      list.append(line);
    }
    item.append(title, list);
    return item;
  }));
}
$('session').addEventListener('input', renderConversations);

// A restarted stubd made a new page key, so this page's requests are refused (403): the page is
// loaded again, once in ten seconds at most, and gets the new key and the new journal.
function staleKey() {
  const last = Number(sessionStorage.getItem('stubd-reloaded-at') || 0);
  if (Date.now() - last < 10000) return;
  sessionStorage.setItem('stubd-reloaded-at', String(Date.now()));
  setStatus('stubd restarted: reloading the page');
  location.reload();
}
// After a lost connection: a journal whose newest entry is older than the last one seen is a
// restarted stubd (its numbers start again), so the list starts again from its journal instead of
// asking it for entries after a number it never reached.
async function resync() {
  const answer = await api('GET', 'requests');
  const list = (answer.json && answer.json.requests) || [];
  const newest = list.reduce((m, e) => Math.max(m, e.sequence), 0);
  if (newest < state.lastId) {
    state.entries = []; state.bySequence = new Map(); state.lastId = 0; state.selected = null;
    setStatus('stubd restarted: the list starts again');
  }
  list.forEach(add);
  scheduleRender();
}
function startPolling() {
  if (state.polling) return;
  setStatus('polling every second (the event stream could not be held)', false);
  state.polling = setInterval(async () => {
    try {
      await resync();
    } catch (error) { /* next tick */ }
  }, 1000);
}
async function watchRecording() {
  try {
    const answer = await api('GET', 'health');
    const recording = answer.json && answer.json.recording;
    state.recording = !!recording;
    $('recording').textContent = recording ? 'recording to ' + recording.out + ' (' + recording.files.length + ' files: ' + recording.files.slice(-3).join(', ') + ')' : '';
  } catch (error) { /* shown by the next call */ }
}

// ---- request detail and near misses -------------------------------------------------------------
function head(lines) { return lines.join('\n'); }
function bodyText(part) {
  if (part.body !== undefined) return part.body;
  if (part.bodyBase64 !== undefined) return '(binary, ' + part.bodySize + ' bytes, base64) ' + part.bodyBase64;
  return '';
}
function showBody(id, part) {
  const text = bodyText(part);
  $(id).hidden = !text && !part.bodyNote;
  $(id).textContent = part.bodyNote ? part.bodyNote : text + (part.bodySize > text.length && part.body !== undefined ? '\n… (' + part.bodySize + ' bytes in all)' : '');
}
function select(sequence) {
  state.selected = sequence;
  const entry = state.bySequence.get(sequence);
  renderRequests();
  if (!entry) return;
  $('detail').hidden = false;
  $('editor').hidden = true;
  $('curl-text').hidden = true;
  $('detail-title').textContent = entry.method + ' ' + (entry.server || '') + entry.url;
  $('request-head').textContent = head([entry.method + ' ' + entry.url].concat(entry.headers.map((h) => h[0] + ': ' + h[1])));
  showBody('request-body', entry);
  const response = entry.response;
  $('response-head').textContent = response ? head(['HTTP ' + response.status].concat(response.headers.map((h) => h[0] + ': ' + h[1])))
                                            : (entry.fault ? faultLine(entry) : '');
  if (response) showBody('response-body', response); else $('response-body').hidden = true;
  renderMiss(entry);
}
function splitDifference(text) {
  // "query q: expected "swift stub", got "swift+stub"" → field, expected, got
  const match = /^(.*?): expected ([\s\S]*?), got ([\s\S]*)$/.exec(text);
  return match ? { field: match[1], expected: match[2], got: match[3] } : { field: '', expected: '', got: text };
}
function renderMiss(entry) {
  const card = $('miss-card');
  const target = $('miss-routes');
  target.replaceChildren();
  let report = null;
  if (kind(entry) === 'missed' && entry.response && entry.response.body) {
    try { report = JSON.parse(entry.response.body); } catch (error) { report = null; }
  }
  card.hidden = !report;
  if (!report) return;
  if (!report.closest || report.closest.length === 0) {
    const p = document.createElement('p');
    p.textContent = 'No routes are loaded for this method and path.';
    target.append(p);
    return;
  }
  for (const route of report.closest) {
    const title = document.createElement('p');
    const strong = document.createElement('strong');
    strong.textContent = route.name;
    title.append(strong, document.createTextNode(' — ' + route.method + ' ' + route.path + ' — from ' + route.source));
    const table = document.createElement('table');
    table.className = 'diff';
    const headRow = table.createTHead().insertRow();
    for (const name of ['field', 'expected', 'got']) { const th = document.createElement('th'); th.textContent = name; headRow.append(th); }
    const body = table.createTBody();
    for (const difference of route.differences) {
      const parts = splitDifference(difference);
      const row = body.insertRow();
      cell(row, parts.field);
      cell(row, parts.expected, 'expected');
      cell(row, parts.got, 'got');
    }
    target.append(title, table);
  }
}

// ---- copy as cURL --------------------------------------------------------------------------------
// The command sends the journaled request to this server and nothing else. Readable (the default):
// the URL first — this page's origin and the request's path, when the path starts with one "/" (so
// nothing in it can move the host) — and the headers a person would send, a browser's own
// (Sec-*, Accept-Encoding, User-Agent, …) left out. Exact ("exact" ticked, or a target like
// "@host/x" or "//evil/x"): the request target goes verbatim through --request-target, headers
// curl would add that the request did not carry are removed ("Name:" sends none). Either way every
// argument is single-quoted and the body travels on standard input (printf, or base64 -d for
// bytes), never as a curl argument that could name a file (@secret.txt). Bodies the journal did
// not keep whole are left out, said so.
function quote(text) { return "'" + String(text).replace(/'/g, "'\\''") + "'"; }
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const NEVER_COPIED = ['host', 'content-length', 'connection', 'transfer-encoding'];
const BROWSER_NOISE = /^(sec-.*|accept-encoding|accept-language|cache-control|pragma|priority|dnt|upgrade-insecure-requests|user-agent|referer)$/;
function curl(entry, exact) {
  const origin = new URL(location.origin).origin;
  const readable = !exact && /^\/(?!\/)/.test(entry.url);
  const parts = ['curl'];
  if (readable) {
    if (/(^|\/)\.\.?(\/|\?|$)/.test(entry.url.split('?')[0])) parts.push('--path-as-is');
    if (/[[\]{}]/.test(entry.url)) parts.push('--globoff');
    parts.push(quote(origin + entry.url));
    // curl's own method is GET, or POST with a body; HEAD is --head (-X HEAD would wait for a body).
    if (entry.method === 'HEAD') parts.push('--head');
    else if (entry.method !== 'GET' || entry.bodySize > 0) parts.push('-X', quote(entry.method));
  } else {
    parts.push('--path-as-is', '-X', quote(entry.method));
  }
  for (const [name, value] of entry.headers) {
    const lower = name.toLowerCase();
    if (!TOKEN.test(name) || NEVER_COPIED.includes(lower) || (readable && BROWSER_NOISE.test(lower))) continue;
    parts.push('-H', quote(name + ': ' + value));
  }
  const sent = new Set(entry.headers.map(([name]) => name.toLowerCase()));
  if (!readable) {
    for (const name of ['Accept', 'User-Agent', 'Content-Type']) {
      if (!sent.has(name.toLowerCase())) parts.push('-H', quote(name + ':'));
    }
    parts.push('--request-target', quote(entry.url), quote(origin + '/'));
  } else if (entry.bodySize > 0 && !sent.has('content-type')) {
    parts.push('-H', quote('Content-Type:'));  // curl would call the body a form, and a route may read it as one
  }
  let input = '';
  let note = '';
  const whole = entry.bodySize === undefined || (entry.body !== undefined ? new TextEncoder().encode(entry.body).length : atob(entry.bodyBase64 || '').length) === entry.bodySize;
  if (entry.bodySize > 0 && !whole) {
    note = '# the body (' + entry.bodySize + ' bytes) was not kept whole in the journal; it is left out\n';
  } else if (entry.bodyBase64) {
    input = 'printf %s ' + quote(entry.bodyBase64) + ' | base64 -d | ';
    parts.splice(1, 0, '--data-binary', '@-');
  } else if (entry.body) {
    input = 'printf %s ' + quote(entry.body) + ' | ';
    parts.splice(1, 0, '--data-binary', '@-');
  }
  return note + input + parts.join(' ');
}
$('copy-curl').addEventListener('click', async () => {
  const entry = state.bySequence.get(state.selected);
  if (!entry) return;
  const text = curl(entry, $('curl-exact').checked);
  $('curl-text').textContent = text;
  $('curl-text').hidden = false;
  try { await navigator.clipboard.writeText(text); } catch (error) { /* shown above to copy by hand */ }
});

// ---- stub this request ---------------------------------------------------------------------------
const DROPPED = ['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date', 'access-control-allow-origin',
                 'access-control-allow-credentials', 'access-control-expose-headers', 'vary'];
// The host a request through the forward proxy was for (its "server", or a CONNECT's target):
// a route naming it makes the proxy answer that host ("stub this host").
function proxiedHost(entry) {
  const authority = entry.server ? new URL(entry.server).host : (entry.method === 'CONNECT' ? entry.url : '');
  const host = authority.startsWith('[') ? authority.slice(1, authority.indexOf(']')) : authority.split(':')[0];
  return host.toLowerCase();
}
function requestPattern(entry, mode) {
  if (entry.method === 'CONNECT') return { method: 'GET', path: '/', host: proxiedHost(entry) };
  const url = new URL(entry.url, location.origin);
  const request = { method: entry.method, path: entry.path };
  if (entry.server) request.host = proxiedHost(entry);
  if (mode === 'exact') {
    const query = {};
    for (const [name, value] of url.searchParams) {
      if (name in query) query[name] = [].concat(query[name], value); else query[name] = value;
    }
    if (Object.keys(query).length) request.query = query;
    if (entry.body) {
      const type = (entry.headers.find((h) => h[0].toLowerCase() === 'content-type') || [, ''])[1];
      let json;
      try { json = JSON.parse(entry.body); } catch (error) { json = undefined; }
      if (json !== undefined && /json/i.test(type)) request.body = { json }; else request.body = { text: entry.body };
    }
  }
  return request;
}
function responseDraft(entry) {
  const response = entry.response;
  if (!response || kind(entry) !== 'proxied') return { status: 200, json: {} };
  const draft = { status: response.status };
  const kept = response.headers.filter((h) => !DROPPED.includes(h[0].toLowerCase()));
  if (kept.length) draft.headers = Object.fromEntries(kept);
  if (response.body !== undefined) {
    try { draft.json = JSON.parse(response.body); } catch (error) { draft.text = response.body; }
  } else if (response.bodyBase64 !== undefined) {
    draft.base64 = response.bodyBase64;
  }
  return draft;
}
function route(entry, mode) {
  return { name: entry.method + ' ' + entry.path, request: requestPattern(entry, mode), response: responseDraft(entry) };
}
function fileName(entry) {
  return (entry.method + entry.path).replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80) + '.json';
}
// What the draft could not take from the journal, said rather than dropped: a body the journal
// kept as binary, cut, or not at all.
function draftNotes(entry, mode) {
  const notes = [];
  if (mode === 'exact' && entry.bodySize > 0) {
    if (entry.bodyNote || entry.body === undefined) {
      notes.push('The request body (' + entry.bodySize + ' bytes' + (entry.bodyBase64 !== undefined ? ', binary' : '') +
                 ') is not in the draft, so the route matches any body; add a "body" matcher by hand if it must.');
    } else if (entry.bodySize > entry.body.length) {
      notes.push('The journal kept ' + entry.body.length + ' of the request body\'s ' + entry.bodySize +
                 ' bytes (--journal-body-limit): the draft\'s body would not match it; narrow or remove the "body" matcher.');
    }
  }
  if (proxiedHost(entry)) {
    notes.push('The route names its host, ' + proxiedHost(entry) + ': once added, stubd\'s proxy answers that host itself ' +
               '(HTTPS through its CA) instead of refusing or passing it on.' +
               (entry.method === 'CONNECT' ? ' A CONNECT only opens a tunnel: set the method and path of the request the client sends in it.' : ''));
  }
  const response = entry.response;
  if (response && kind(entry) === 'proxied' && response.bodySize > 0) {
    const kept = response.body !== undefined ? response.body.length : (response.bodyBase64 !== undefined ? Math.floor(response.bodyBase64.length * 3 / 4) : 0);
    if (kept < response.bodySize) {
      notes.push('The journal kept ' + kept + ' of the answer\'s ' + response.bodySize +
                 ' bytes (--journal-body-limit): the draft answers with those only; record the route (--record) for the whole body.');
    }
  }
  return notes;
}
function openEditor() {
  const entry = state.bySequence.get(state.selected);
  if (!entry) return;
  const mode = document.querySelector('input[name="draft-mode"]:checked').value;
  $('draft').value = JSON.stringify(route(entry, mode), null, 2);
  $('draft-file').value = fileName(entry);
  $('draft-errors').replaceChildren();
  $('draft-notes').replaceChildren(...draftNotes(entry, mode).map((text) => { const li = document.createElement('li'); li.textContent = text; return li; }));
  $('draft-result').textContent = '';
  setEnabled($('add-session'), Boolean(entry.session));
  $('add-session').title = entry.session ? 'only requests with X-Stubd-Session: ' + entry.session : 'the request had no session';
  $('write-controls').hidden = !WRITES;
  $('editor').hidden = false;
}
// The editor opens below the request's detail, often below the fold: bring it into view and put
// the cursor in the draft, so the click visibly does something.
$('stub-this').addEventListener('click', () => {
  openEditor();
  $('editor').scrollIntoView({ block: 'start' });
  $('draft').focus({ preventScroll: true });
});
for (const radio of document.querySelectorAll('input[name="draft-mode"]')) radio.addEventListener('change', openEditor);
function showProblems(answer) {
  const list = $('draft-errors');
  list.replaceChildren();
  const problems = [answer.json && answer.json.error ? answer.json.error : 'HTTP ' + answer.status].concat((answer.json && answer.json.problems) || []);
  for (const problem of problems) { const li = document.createElement('li'); li.textContent = problem; list.append(li); }
}
function parsedDraft() {
  try { return JSON.parse($('draft').value); } catch (error) {
    showProblems({ status: 400, json: { error: 'the route is not JSON: ' + error.message } });
    return null;
  }
}
async function addRoute(session) {
  const draft = parsedDraft();
  if (!draft) return;
  $('draft-result').textContent = '';
  const answer = await api('POST', 'routes', draft, session);
  if (answer.status === 201) {
    $('draft-errors').replaceChildren();
    $('draft-result').textContent = 'Added ' + answer.json.added.join(', ') + (session ? ' for session ' + session : ' for every session') + '.';
    loadRoutes();
  } else {
    showProblems(answer);
  }
}
$('add-session').addEventListener('click', () => addRoute(state.bySequence.get(state.selected).session));
$('add-global').addEventListener('click', () => addRoute(null));
$('write-file').addEventListener('click', async () => {
  const draft = parsedDraft();
  if (!draft) return;
  const answer = await api('POST', 'ui/fixtures', { file: $('draft-file').value.trim(), document: draft });
  if (answer.status === 201) {
    $('draft-errors').replaceChildren();
    $('draft-result').textContent = 'Wrote ' + answer.json.written + '.';
  } else {
    showProblems(answer);
  }
});

// ---- routes and scenarios ------------------------------------------------------------------------
async function loadRoutes() {
  const answer = await api('GET', 'routes', undefined, $('session').value.trim() || null);
  state.routes = (answer.json && answer.json.routes) || [];
  renderRoutes();
}
// A button that calls stubd: off while it does not answer (see setStatus).
function serverButton(label, action) {
  const button = document.createElement('button');
  button.textContent = label;
  button.className = 'needs-server';
  if (document.body.classList.contains('offline')) { button.dataset.wasDisabled = ''; button.disabled = true; }
  button.addEventListener('click', action);
  return button;
}
function renderRoutes() {
  const text = $('routes-filter').value.trim().toLowerCase();
  const body = $('routes').tBodies[0];
  body.replaceChildren();
  for (const item of state.routes) {
    const request = item.route.request || {};
    const path = request.path || request.pathTemplate || request.pathPattern || request.urlPattern || '';
    const name = item.route.name || '';
    if (text && !(name + ' ' + path + ' ' + item.source).toLowerCase().includes(text)) continue;
    const row = body.insertRow();
    row.dataset.route = item.id;
    if (item.disabled) row.className = 'off';
    cell(row, item.id);
    cell(row, name);
    cell(row, request.method || 'any');
    cell(row, path, 'path');
    cell(row, item.answers + (item.disabled ? ' (off)' : ''));
    cell(row, String(item.hits));
    cell(row, item.source);
    cell(row, item.session || '');
    const actions = row.insertCell();
    actions.className = 'actions';
    actions.append(serverButton(item.disabled ? 'Turn on' : 'Turn off', () => switchRoute(item)));
    actions.append(serverButton(item.origin === 'runtime' ? 'Edit' : 'Override', () => editRoute(item)));
    if (item.origin === 'runtime') actions.append(serverButton('Delete', () => deleteRoute(item)));
  }
}
// Route actions act on the running server for the session in the session box (every session
// when it is empty); a fixture route is never changed on disk: "Override" adds a runtime route
// for the same request, which answers before it.
function viewedSession() { return $('session').value.trim() || null; }
async function routeAction(answer, done) {
  if (answer.status >= 200 && answer.status < 300) {
    $('route-result').textContent = done;
    $('route-errors').replaceChildren();
    await loadRoutes();
    return true;
  }
  const list = $('route-errors');
  list.replaceChildren(...[answer.json && answer.json.error ? answer.json.error : 'HTTP ' + answer.status]
    .concat((answer.json && answer.json.problems) || []).map((text) => { const li = document.createElement('li'); li.textContent = text; return li; }));
  return false;
}
async function switchRoute(item) {
  const verb = item.disabled ? 'enable' : 'disable';
  await routeAction(await api('POST', 'routes/' + item.id + '/' + verb, undefined, viewedSession()),
                    item.id + (item.disabled ? ' is on again' : ' is off') + (viewedSession() ? ' for session ' + viewedSession() : ' for every session') + '.');
}
async function deleteRoute(item) {
  await routeAction(await api('DELETE', 'routes/' + item.id, undefined, item.session || null), 'Deleted ' + item.id + '.');
}
let editing = null;
function editRoute(item) {
  editing = item;
  $('route-editor-title').textContent = item.origin === 'runtime'
    ? 'Edit ' + item.id + (item.session ? ' (session ' + item.session + ')' : '')
    : 'Override ' + item.id + ' (' + item.source + ') with a runtime route' + (viewedSession() ? ' for session ' + viewedSession() : ' for every session');
  $('route-draft').value = JSON.stringify(item.route, null, 2);
  $('route-errors').replaceChildren();
  $('route-result').textContent = '';
  $('route-editor').hidden = false;
  $('route-editor').scrollIntoView({ block: 'start' });
  $('route-draft').focus({ preventScroll: true });
}
$('route-cancel').addEventListener('click', () => { $('route-editor').hidden = true; editing = null; });
$('route-save').addEventListener('click', async () => {
  if (!editing) return;
  let draft;
  try { draft = JSON.parse($('route-draft').value); } catch (error) {
    $('route-errors').replaceChildren(Object.assign(document.createElement('li'), { textContent: 'the route is not JSON: ' + error.message }));
    return;
  }
  const saved = editing.origin === 'runtime'
    ? await routeAction(await api('PUT', 'routes/' + editing.id, draft, editing.session || null), 'Saved ' + editing.id + '.')
    : await routeAction(await api('POST', 'routes', draft, viewedSession()), 'Added a runtime route overriding ' + editing.id + '.');
  if (saved) { $('route-editor').hidden = true; editing = null; }
});
$('routes-filter').addEventListener('input', renderRoutes);
$('routes-refresh').addEventListener('click', loadRoutes);
async function loadScenarios() {
  const session = $('session').value.trim() || null;
  const answer = await api('GET', 'scenarios', undefined, session);
  const body = $('scenarios').tBodies[0];
  body.replaceChildren();
  const scenarios = (answer.json && answer.json.scenarios) || {};
  for (const name of Object.keys(scenarios)) {
    const row = body.insertRow();
    cell(row, name);
    cell(row, scenarios[name]);
    const td = row.insertCell();
    const input = document.createElement('input');
    input.placeholder = 'state';
    const button = document.createElement('button');
    button.textContent = 'Set';
    button.addEventListener('click', async () => {
      const result = await api('PUT', 'scenarios/' + encodeURIComponent(name), { state: input.value }, session);
      const errors = $('scenario-errors');
      errors.replaceChildren();
      if (result.status !== 200) { const li = document.createElement('li'); li.textContent = (result.json && result.json.error) || result.text; errors.append(li); }
      loadScenarios();
    });
    td.append(input, button);
  }
  const sequences = $('sequences').tBodies[0];
  sequences.replaceChildren();
  for (const sequence of (answer.json && answer.json.sequences) || []) {
    const row = sequences.insertRow();
    cell(row, sequence.name);
    cell(row, sequence.route);
    cell(row, sequence.served + ' of ' + sequence.steps);
    cell(row, sequence.next);
  }
}
$('scenarios-refresh').addEventListener('click', loadScenarios);
$('scenarios-reset').addEventListener('click', async () => {
  const answer = await api('POST', 'scenarios/reset', undefined, $('session').value.trim() || null);
  $('scenarios-result').textContent = answer.status === 200 ? 'Reset.' : 'HTTP ' + answer.status;
  loadScenarios();
});
for (const button of document.querySelectorAll('nav button')) {
  button.addEventListener('click', () => {
    for (const other of document.querySelectorAll('nav button')) other.classList.toggle('active', other === button);
    for (const tab of ['requests', 'routes', 'scenarios']) $('tab-' + tab).hidden = tab !== button.dataset.tab;
    if (button.dataset.tab === 'routes') loadRoutes();
    if (button.dataset.tab === 'scenarios') loadScenarios();
  });
}

// ---- downloads: HAR and a fixture folder as tar --------------------------------------------------
function visible() { const f = filters(); return state.entries.filter((e) => accepts(e, f)); }
function save(name, type, bytes) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([bytes], { type }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}
function har(entries) {
  const pairs = (list) => list.map(([name, value]) => ({ name, value }));
  return { log: { version: '1.2', creator: { name: 'stubd dashboard', version: '1' }, entries: entries.map((e) => {
    const url = new URL(e.url, location.origin);
    const type = (e.headers.find((h) => h[0].toLowerCase() === 'content-type') || [, ''])[1];
    const response = e.response || { status: 0, headers: [], bodySize: 0 };
    const responseType = (response.headers.find((h) => h[0].toLowerCase() === 'content-type') || [, ''])[1];
    const request = { method: e.method, url: url.href, httpVersion: 'HTTP/1.1', headers: pairs(e.headers), cookies: [],
                      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })), headersSize: -1, bodySize: e.bodySize };
    if (e.body) request.postData = { mimeType: type, text: e.body };
    const content = { size: response.bodySize, mimeType: responseType };
    if (response.body !== undefined) content.text = response.body;
    if (response.bodyBase64 !== undefined) { content.text = response.bodyBase64; content.encoding = 'base64'; }
    return { startedDateTime: e.time, time: e.latencyMs, request,
             response: { status: response.status, statusText: '', httpVersion: 'HTTP/1.1', headers: pairs(response.headers), cookies: [],
                         content, redirectURL: '', headersSize: -1, bodySize: response.bodySize, _stubdFault: e.fault },
             cache: {}, timings: { send: 0, wait: e.latencyMs, receive: 0 } };
  }) } };
}
function tar(files) {
  const encoder = new TextEncoder();
  const blocks = [];
  const field = (header, offset, length, text) => { const bytes = encoder.encode(text); header.set(bytes.slice(0, length), offset); };
  const octal = (value, length) => value.toString(8).padStart(length - 1, '0') + '\0';
  for (const file of files) {
    const data = encoder.encode(file.text);
    const header = new Uint8Array(512);
    field(header, 0, 100, file.name);
    field(header, 100, 8, octal(0o644, 8));
    field(header, 108, 8, octal(0, 8));
    field(header, 116, 8, octal(0, 8));
    field(header, 124, 12, octal(data.length, 12));
    field(header, 136, 12, octal(Math.floor(Date.now() / 1000), 12));
    field(header, 148, 8, '        ');
    field(header, 156, 1, '0');
    field(header, 257, 6, 'ustar\0');
    field(header, 263, 2, '00');
    const sum = header.reduce((total, byte) => total + byte, 0);
    field(header, 148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
    blocks.push(header, data, new Uint8Array((512 - (data.length % 512)) % 512));
  }
  blocks.push(new Uint8Array(1024));
  return new Blob(blocks);
}
$('download-har').addEventListener('click', () => save('stubd-session.har', 'application/json', JSON.stringify(har(visible()), null, 2)));
$('download-fixtures').addEventListener('click', () => {
  const seen = new Set();
  const files = [];
  for (const entry of visible()) {
    const draft = route(entry, 'exact');
    if (entry.response && kind(entry) !== 'proxied') {
      draft.response = { status: entry.response.status };
      const kept = entry.response.headers.filter((h) => !DROPPED.includes(h[0].toLowerCase()));
      if (kept.length) draft.response.headers = Object.fromEntries(kept);
      if (entry.response.body !== undefined) draft.response.text = entry.response.body;
    }
    if (entry.fault) { delete draft.response; draft.fault = entry.fault; }
    const key = JSON.stringify(draft.request);
    if (seen.has(key)) continue;
    seen.add(key);
    let name = fileName(entry);
    if (files.some((f) => f.name === 'stubd-session/' + name)) name = name.replace(/\.json$/, '-' + entry.sequence + '.json');
    files.push({ name: 'stubd-session/' + name, text: JSON.stringify(draft, null, 2) + '\n' });
  }
  save('stubd-session.tar', 'application/x-tar', tar(files));
});

// ---- start ---------------------------------------------------------------------------------------
let started = false;
async function start() {
  try {
    await load();
    if (started) return;
    started = true;
    setInterval(watchRecording, 2000);
    watchRecording();
    stream();
  } catch (error) {
    if (!(error instanceof NeedsToken)) setStatus('cannot reach the admin API: ' + error.message);
  }
}
start();
