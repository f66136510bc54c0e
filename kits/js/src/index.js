// stubd's session kit for JavaScript (Node ≥ 18 and the test runners on it; no dependencies).
// Every call is one of docs/admin-api.openapi.json's: `call("METHOD", "path/{param}", …)` is the
// only way the kit reaches the admin API, and Tests/admin/spec_test.py checks each against it.

/** The header that puts a request in a session. */
export const SESSION_HEADER = "X-Stubd-Session";

/** Answer fields that sit on the route itself, not in `response` (docs/FIXTURES.md). */
const ROUTE_ANSWERS = ["fault", "stream", "llm", "networkError", "websocket"];

/** Extensions of recorded body files and the Content-Type stubd serves them with. */
const FILE_TYPES = {
  json: "application/json", txt: "text/plain; charset=utf-8", html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8", css: "text/css; charset=utf-8", js: "text/javascript; charset=utf-8",
  xml: "application/xml", csv: "text/csv; charset=utf-8", svg: "image/svg+xml", png: "image/png",
  jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", pdf: "application/pdf",
  ndjson: "application/x-ndjson", zip: "application/zip",
};

/** An admin call stubd refused, with its status and stubd's message (what to change). */
export class StubdAdminError extends Error {
  constructor(method, path, status, message, problems = []) {
    super(`${method} /__stubd/${path}: ${status} ${message}${problems.length ? "\n  " + problems.join("\n  ") : ""}`);
    this.name = "StubdAdminError";
    this.status = status;
    this.problems = problems;
  }
}

/** A count that was not what the test expected, or a strict session with unused stubs or misses. */
export class StubdExpectationError extends Error {
  constructor(message) {
    super(message);
    this.name = "StubdExpectationError";
  }
}

/** A stubd server: where it is, and its admin token when it has one. */
export class Stubd {
  /**
   * @param {{baseURL?: string, token?: string}} [options] baseURL: STUBD_BASE_URL or http://127.0.0.1:8080;
   *   token: STUBD_ADMIN_TOKEN when set (needed when stubd listens beyond 127.0.0.1).
   */
  constructor({ baseURL, token } = {}) {
    const env = typeof process === "undefined" ? {} : process.env;
    this.baseURL = (baseURL ?? env.STUBD_BASE_URL ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
    this.token = token ?? env.STUBD_ADMIN_TOKEN;
  }

  /**
   * One admin call: `template` is the document's path after /__stubd/ (`routes/{id}`), filled from
   * `params` in order; the answer's JSON, or a StubdAdminError with stubd's message.
   */
  async call(method, template, { params = [], body, session, query } = {}) {
    const rest = [...params];
    const path = template.replace(/\{[^}]+\}/g, () => encodeURIComponent(String(rest.shift())));
    const headers = { Accept: "application/json" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (session) headers[SESSION_HEADER] = session;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const pairs = new URLSearchParams(Object.entries(query ?? {}).filter(([, v]) => v !== undefined)).toString();
    const search = pairs ? "?" + pairs : "";
    let answer;
    try {
      answer = await fetch(`${this.baseURL}/__stubd/${path}${search}`, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new StubdAdminError(method, path, 0, `stubd at ${this.baseURL} cannot be reached (${error.cause?.code ?? error.message}): start it (make run, or stubd serve) or set STUBD_BASE_URL`);
    }
    const text = await answer.text();
    let value;
    try {
      value = text ? JSON.parse(text) : {};
    } catch {
      throw new StubdAdminError(method, path, answer.status, `the answer is not JSON: ${text.slice(0, 200)}`);
    }
    if (!answer.ok) throw new StubdAdminError(method, path, answer.status, value.error ?? text, value.problems ?? []);
    return value;
  }

  /** Waits until stubd answers `GET /__stubd/ready` (a container or a process just started). */
  async ready({ timeoutMs = 10000 } = {}) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return await this.call("GET", "ready");
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  /** A session of its own (a fresh id unless named); end it with `end()`. */
  session(name) {
    return new StubdSession(this, name ?? `js-${randomID()}`);
  }
}

/**
 * One test's share of a stubd: stubs only its requests see, its own sequence positions, scenario
 * states and journal. Send `headers` with every request the code under test makes.
 */
export class StubdSession {
  constructor(stubd, id) {
    this.stubd = stubd;
    this.id = id;
  }

  /** `{"X-Stubd-Session": id}`: the header that puts a request in this session. */
  get headers() {
    return { [SESSION_HEADER]: this.id };
  }

  /** `fetch` to stubd in this session: `path` on stubd's address, the session header added. */
  fetch(path, init = {}) {
    const headers = new Headers(init.headers);
    headers.set(SESSION_HEADER, this.id);
    return fetch(new URL(path, this.stubd.baseURL + "/"), { ...init, headers });
  }

  /** An admin call in this session. */
  call(method, template, options = {}) {
    return this.stubd.call(method, template, { ...options, session: this.id });
  }

  /**
   * Makes `method path` answer `answer` for this session only (beating fixtures and shared routes):
   * a response (`{status, json, text, headers, base64}`), `{fault: "reset"}`, `{stream: {…}}`,
   * `{llm: {…}}` or `{networkError: {…}}`; or `{sequence: [answers…], afterLast: "cycle"}` answered
   * in turn. `request` adds matchers in the fixture format (query, headers, body); `delay` in seconds.
   * Returns the route's id.
   */
  async stub(method, path, answer = {}, { request = {}, delay, name } = {}) {
    const route = { request: { method, path, ...request }, ...answerFields(answer) };
    if (delay !== undefined) route.delay = delay;
    if (name !== undefined) route.name = name;
    return (await this.addRoutes(route))[0];
  }

  /** Adds routes in the fixture format (one route, or a fixture file's `{routes: […]}`); their ids. */
  async addRoutes(document) {
    return (await this.call("POST", "routes", { body: document })).added;
  }

  /** Adds the routes of a fixture file (Node: read from disk, its `bodyFile`s inlined); their ids. */
  async stubFile(file) {
    const { readFile } = await import("node:fs/promises");
    const { dirname, basename } = await import("node:path");
    const document = JSON.parse(await readFile(file, "utf8"));
    return this.addRoutes(await inlineBodies(document, dirname(file), basename(file)));
  }

  /** This session's journal entries, oldest first (filters: method, path, route, matched). */
  async requests(filters = {}) {
    return (await this.call("GET", "requests", { query: filters })).requests;
  }

  /** How many of this session's requests a route answered for `method path` (re-sends after a fault not counted). */
  async count(method, path) {
    const entries = await this.requests({ method, path, matched: "true" });
    return entries.filter((entry) => !entry.resend).length;
  }

  /** Throws StubdExpectationError, listing this session's misses and their closest routes, unless exactly `count` matched. */
  async expect(method, path, count) {
    const actual = await this.count(method, path);
    if (actual === count) return;
    const misses = (await this.requests({ matched: "false" })).map(describeMiss);
    throw new StubdExpectationError(`session ${this.id}: expected ${count} × ${method} ${path}, got ${actual}` +
      (misses.length ? "\nrequests that matched no stub:\n" + misses.map((m) => "  " + m).join("\n") : ""));
  }

  /**
   * The strict check for the end of a test: throws listing every stub this session added that no
   * request reached and every request of this session that reached no stub (with its closest route).
   */
  async verifyStrict({ mode = currentMode() } = {}) {
    const routes = (await this.call("GET", "routes")).routes;
    const unused = routes.filter((entry) => entry.session === this.id && entry.hits === 0).map((entry) => {
      const request = entry.route?.request ?? {};
      const path = request.path ?? request.pathTemplate ?? request.pathPattern ?? request.urlPattern ?? "";
      return `${entry.route?.name ?? entry.id}: ${request.method ?? ""} ${path} → ${entry.answers}, never requested`;
    });
    const misses = (await this.requests({ matched: "false" }))
      .filter((entry) => mode === "playback" || !(entry.nearMiss ?? "").startsWith("proxied to "))
      .map(describeMiss);
    if (unused.length || misses.length) {
      throw new StubdExpectationError(`session ${this.id} is strict:` +
        (unused.length ? "\nstubs no request reached:\n" + unused.map((u) => "  " + u).join("\n") : "") +
        (misses.length ? "\nrequests that matched no stub:\n" + misses.map((m) => "  " + m).join("\n") : ""));
    }
  }

  /** This session's requests as canonical text (volatile headers dropped): compare with a stored snapshot. */
  async snapshot(filters = {}) {
    return (await this.call("GET", "requests/snapshot", { query: filters })).snapshot;
  }

  /** Fixes the time `{{now}}` gives this session (a Date or ISO 8601 text); null: real time again. */
  async setClock(now) {
    if (now === null) return this.call("DELETE", "clock");
    return this.call("PUT", "clock", { body: { now: now instanceof Date ? now.toISOString() : now } });
  }

  /**
   * A forward-proxy port of this session's own (stubd serving with --proxy-port): `{ port, session,
   * proxy }`. A browser or device whose proxy is `proxy` sends every request in this session, no
   * credentials needed (Chromium refuses them in --proxy-server). Closed when the session ends.
   */
  async proxyPort() {
    return this.call("POST", "proxy/ports");
  }

  /** Sets a scenario's state for this session. */
  async setScenario(name, state) {
    return this.call("PUT", "scenarios/{name}", { params: [name], body: { state } });
  }

  /**
   * Record once, replay after. `playback` (the default, STUBD_MODE unset): the folder's fixture files
   * become this session's routes. `record`: this session's misses go to `upstream` and are written
   * into `folder` (on stubd's machine); `live`: forwarded, nothing kept. Call `finishRecording()` after.
   */
  async useRecording(folder, { upstream, mode = currentMode() } = {}) {
    if (mode === "playback") {
      const { readdir, readFile } = await import("node:fs/promises");
      let files = [];
      try {
        files = (await readdir(folder)).filter((name) => name.endsWith(".json")).sort();
      } catch {
        // no folder: said below
      }
      if (!files.length) {
        throw new StubdExpectationError(`${folder}: no recording; run the test once with STUBD_MODE=record (and the real API reachable) to make it`);
      }
      for (const file of files) {
        const document = JSON.parse(await readFile(`${folder}/${file}`, "utf8"));
        await this.addRoutes(await inlineBodies(document, folder, file));
      }
      return;
    }
    if (!upstream) throw new StubdExpectationError(`STUBD_MODE=${mode} needs the real API's URL (upstream)`);
    let out = folder;
    if (mode === "live") {
      const { tmpdir } = await import("node:os");
      out = `${tmpdir()}/stubd-live-${this.id}`;
    }
    await this.call("POST", "recording/start", { body: { upstream, out, overwrite: true } });
  }

  /** Ends a recording `useRecording` started, once every file is written (nothing in playback). */
  async finishRecording({ mode = currentMode() } = {}) {
    if (mode !== "playback") await this.call("POST", "recording/stop");
  }

  /** Removes this session's stubs, sequence positions, scenario states and journal entries. */
  async end() {
    await this.call("POST", "reset");
  }
}

/**
 * A session per test for Vitest, Jest or node:test: pass the runner's `beforeEach` and `afterEach`;
 * returns a function giving the running test's session. `strict`: each test ends with `verifyStrict()`.
 *
 * Each session belongs to its test's context (node:test and Vitest hand the same context to the
 * hooks and to the test function), never to a module-wide "current" one, so tests that run at once
 * (`describe(…, { concurrency: 10 })`, `test.concurrent`) each get their own: call `session(t)` with
 * the test's context. `session()` without it works while one test runs, and says how to fix it
 * when several do.
 */
export function sessionPerTest(stubd, { beforeEach, afterEach }, { strict = false } = {}) {
  const sessions = new Map();
  const alone = Symbol("the running test");
  // Rest parameters: a hook of length 0, which Jest calls without a `done` callback.
  beforeEach((...args) => {
    sessions.set(args[0] ?? alone, stubd.session());
  });
  afterEach(async (...args) => {
    const key = args[0] ?? alone;
    const session = sessions.get(key);
    sessions.delete(key);
    if (!session) return;
    try {
      if (strict) await session.verifyStrict();
    } finally {
      await session.end();
    }
  });
  return (context) => {
    if (context !== undefined) {
      const session = sessions.get(context);
      if (!session) throw new Error("sessionPerTest: no session for this test context (pass the context the test function was given)");
      return session;
    }
    if (sessions.size === 1) return sessions.values().next().value;
    if (sessions.size === 0) throw new Error("sessionPerTest: no test is running (call the returned function inside a test)");
    throw new Error(`sessionPerTest: ${sessions.size} tests are running at once; pass the test's context: ` +
                    "test(\"…\", async (t) => { const s = session(t); … })");
  };
}

/**
 * Puts every request of a Playwright browser context (pages, fetches, scripts) in `session`: the
 * context sends its header, no `page.route` needed. Point the app at stubd's address yourself.
 */
export async function useSessionInContext(context, session) {
  await context.setExtraHTTPHeaders(session.headers);
}

/** `STUBD_MODE`: playback (default), record or live. */
export function currentMode() {
  const mode = (typeof process === "undefined" ? undefined : process.env.STUBD_MODE)?.toLowerCase();
  return ["record", "live", "playback"].includes(mode) ? mode : "playback";
}

function answerFields(answer) {
  if (Array.isArray(answer.sequence)) {
    const route = { responses: [...answer.sequence] };
    if (answer.afterLast !== undefined) route.afterLast = answer.afterLast;
    return route;
  }
  return ROUTE_ANSWERS.some((key) => key in answer) ? answer : { response: answer };
}

function describeMiss(entry) {
  return `${entry.method} ${entry.url}` + (entry.nearMiss ? ` → ${entry.nearMiss}` : "");
}

function randomID() {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** `document` with every recorded `bodyFile` replaced by its bytes from `folder/__files/` (runtime routes carry their bodies). */
async function inlineBodies(document, folder, file) {
  if (Array.isArray(document)) return Promise.all(document.map((item) => inlineBodies(item, folder, file)));
  if (document === null || typeof document !== "object") return document;
  const result = {};
  for (const [key, value] of Object.entries(document)) {
    if (key === "bodyFile" && typeof value === "string") {
      if (value.startsWith("/") || value.split("/").includes("..")) {
        throw new StubdExpectationError(`${folder}/${file}: bodyFile "${value}": must be a path inside __files/`);
      }
      const { readFile } = await import("node:fs/promises");
      let bytes;
      try {
        bytes = await readFile(`${folder}/__files/${value}`);
      } catch {
        throw new StubdExpectationError(`${folder}/${file}: bodyFile "${value}": no such file; record the test again`);
      }
      result.base64 = bytes.toString("base64");
      if (document.defaultHeaders !== false) {
        const headers = { ...(document.headers ?? {}) };
        if (!Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) {
          const ext = value.includes(".") ? value.split(".").pop().toLowerCase() : "";
          headers["Content-Type"] = FILE_TYPES[ext] ?? "application/octet-stream";
        }
        result.headers = headers;
      }
    } else if (!(key === "headers" && "bodyFile" in document && document.defaultHeaders !== false)) {
      result[key] = await inlineBodies(value, folder, file);
    }
  }
  return result;
}
