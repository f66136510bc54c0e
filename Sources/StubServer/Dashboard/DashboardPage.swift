/// The dashboard's HTML and CSS, shipped in the binary (no build step, no download, no CDN).
/// `{{UI_KEY}}` and `{{WRITES}}` are filled in per server when the page is served; the script is
/// `DashboardScript` (served as `/__stubd/ui/app.js`, so the page's CSP allows no inline script).
enum DashboardPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="stubd-ui-key" content="{{UI_KEY}}">
<meta name="stubd-writes" content="{{WRITES}}">
<title>stubd dashboard</title>
<style>
:root { --bg: #fbfbfa; --fg: #1d1d1f; --muted: #6e6e73; --line: #e3e3e0; --miss: #b3261e; --hit: #1b6e3a; --proxy: #7a4fb3; --accent: #0b57d0; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); }
header { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 8px 12px; border-bottom: 1px solid var(--line); background: #fff; position: sticky; top: 0; z-index: 2; }
header h1 { font-size: 16px; margin: 0 8px 0 0; }
nav button.active { background: var(--fg); color: #fff; }
button, select, input, textarea { font: inherit; }
button { border: 1px solid var(--line); background: #fff; border-radius: 6px; padding: 4px 10px; cursor: pointer; }
button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
input, select { border: 1px solid var(--line); border-radius: 6px; padding: 4px 6px; background: #fff; }
#status { font-size: 12px; color: var(--muted); }
#status.live::before { content: "● "; color: var(--hit); }
main { padding: 8px 12px; }
.filters { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-bottom: 6px; }
.filters input { width: 9em; }
.hint { color: var(--muted); font-size: 12px; }
.split { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 12px; }
@media (max-width: 900px) { .split { grid-template-columns: 1fr; } }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid var(--line); white-space: nowrap; font-size: 13px; }
td.path { white-space: normal; word-break: break-all; font-family: ui-monospace, Menlo, monospace; }
tr.selected { background: #eef3fd; }
tbody tr { cursor: pointer; }
.MISS { color: var(--miss); font-weight: 600; } .PROXY, .RECORDED { color: var(--proxy); font-weight: 600; } .hit { color: var(--hit); }
section.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px; margin-bottom: 10px; }
section.card h2 { font-size: 14px; margin: 0 0 6px; }
pre { background: #f4f4f2; padding: 6px; border-radius: 6px; white-space: pre-wrap; word-break: break-all; max-height: 22em; overflow: auto; font-size: 12px; margin: 4px 0; }
.diff td { white-space: normal; word-break: break-all; font-family: ui-monospace, Menlo, monospace; font-size: 12px; }
.diff .expected { color: var(--hit); } .diff .got { color: var(--miss); }
textarea { width: 100%; min-height: 14em; font-family: ui-monospace, Menlo, monospace; font-size: 12px; border: 1px solid var(--line); border-radius: 6px; padding: 6px; }
.errors { color: var(--miss); margin: 4px 0; padding-left: 18px; }
.ok { color: var(--hit); }
.row { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 6px 0; }
#token-bar { display: none; background: #fff4e5; border-bottom: 1px solid #f0c36d; padding: 8px 12px; }
#token-bar.shown { display: block; }
[hidden] { display: none !important; }
</style>
</head>
<body>
<div id="token-bar" role="alert">
  <form id="token-form" class="row">
    <span>This stubd needs its admin token (<code>--admin-token</code>). It is kept in this tab only.</span>
    <input id="token-input" type="password" autocomplete="off" placeholder="admin token" aria-label="admin token">
    <button class="primary" type="submit">Use token</button>
    <span id="token-error" class="errors"></span>
  </form>
</div>
<header>
  <h1>stubd</h1>
  <nav>
    <button data-tab="requests" class="active">Requests</button>
    <button data-tab="routes">Routes</button>
    <button data-tab="scenarios">Scenarios</button>
  </nav>
  <span id="status">connecting…</span>
  <span id="recording" class="hint"></span>
  <span style="flex: 1"></span>
  <label class="hint">session <input id="session" placeholder="all sessions" size="12"></label>
  <button id="pause">Pause</button>
  <button id="download-har">Download HAR</button>
  <button id="download-fixtures">Download fixtures (.tar)</button>
</header>
<main>
  <div id="tab-requests">
    <div class="filters">
      <select id="f-method" aria-label="method"><option value="">any method</option><option>GET</option><option>POST</option><option>PUT</option><option>PATCH</option><option>DELETE</option><option>HEAD</option><option>OPTIONS</option></select>
      <input id="f-path" placeholder="path contains" aria-label="path contains">
      <input id="f-status" placeholder="status (404, 5xx, fault)" aria-label="status">
      <select id="f-kind" aria-label="matched or missed"><option value="">all</option><option value="matched">matched</option><option value="missed">missed</option><option value="proxied">proxied</option></select>
      <input id="f-route" placeholder="route" aria-label="route">
      <span id="hidden-count" class="hint"></span>
    </div>
    <div class="split">
      <div class="scroll">
        <table id="requests">
          <thead><tr><th>time</th><th>method</th><th>path</th><th>status</th><th>answered by</th><th>ms</th><th>session</th><th>conn</th></tr></thead>
          <tbody></tbody>
        </table>
        <p id="empty" class="hint">No requests yet. Point a client at this server; requests appear here as they arrive.</p>
      </div>
      <div id="detail" hidden>
        <section class="card" id="miss-card" hidden>
          <h2>Why it missed</h2>
          <div id="miss-routes"></div>
        </section>
        <section class="card">
          <div class="row"><h2 id="detail-title" style="flex: 1"></h2>
            <button id="copy-curl">Copy as cURL</button>
            <button id="stub-this" class="primary">Stub this request</button></div>
          <pre id="curl-text" hidden></pre>
          <h2>Request</h2><pre id="request-head"></pre><pre id="request-body" hidden></pre>
          <h2>Response</h2><pre id="response-head"></pre><pre id="response-body" hidden></pre>
        </section>
        <section class="card" id="editor" hidden>
          <h2>New route</h2>
          <div class="row">
            <label><input type="radio" name="draft-mode" value="exact" checked> exact request</label>
            <label><input type="radio" name="draft-mode" value="shape"> method and path only</label>
          </div>
          <textarea id="draft" spellcheck="false" aria-label="route JSON"></textarea>
          <ul id="draft-errors" class="errors"></ul>
          <p id="draft-result" class="ok"></p>
          <div class="row">
            <button id="add-session" class="primary">Add for this session</button>
            <button id="add-global">Add for every session</button>
            <span id="write-controls" class="row">
              <input id="draft-file" placeholder="file name.json" size="20" aria-label="fixture file name">
              <button id="write-file">Write fixture file</button>
            </span>
          </div>
        </section>
      </div>
    </div>
  </div>
  <div id="tab-routes" hidden>
    <div class="filters"><input id="routes-filter" placeholder="filter routes" aria-label="filter routes"><button id="routes-refresh">Refresh</button></div>
    <div class="scroll"><table id="routes"><thead><tr><th>id</th><th>name</th><th>method</th><th>path</th><th>answers</th><th>hits</th><th>source</th><th>session</th></tr></thead><tbody></tbody></table></div>
  </div>
  <div id="tab-scenarios" hidden>
    <div class="row"><button id="scenarios-reset">Reset scenarios and sequences</button><button id="scenarios-refresh">Refresh</button><span id="scenarios-result" class="ok"></span></div>
    <table id="scenarios"><thead><tr><th>scenario</th><th>state</th><th>set state</th></tr></thead><tbody></tbody></table>
    <ul id="scenario-errors" class="errors"></ul>
    <h2 style="font-size: 14px">Sequences</h2>
    <table id="sequences"><thead><tr><th>route</th><th>id</th><th>answers served</th><th>next answer</th></tr></thead><tbody></tbody></table>
  </div>
</main>
<script src="/__stubd/ui/app.js"></script>
</body>
</html>
"""#
}
