// The JavaScript kit against a real stubd (make test; STUBD_BIN names the binary): 20 parallel
// tests each with its own session stubbing the same path differently, strict sessions, near
// misses in expectations, sequences, faults, streams, fixture files, snapshots, record and replay.
import { after, afterEach, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Stubd, StubdAdminError, StubdExpectationError, sessionPerTest } from "../src/index.js";
import { fixtures, startStubd } from "./stubd-process.js";

let server;
let stubd;

before(async () => {
  server = await startStubd(fixtures([
    { name: "profile", request: { method: "GET", path: "/profile" }, response: { json: { name: "shared" } } },
  ]));
  stubd = new Stubd({ baseURL: server.baseURL });
  await stubd.ready();
});

after(async () => {
  await server.stop();
});

describe("twenty tests in parallel, one stubd", { concurrency: 20 }, () => {
  let running = 0;
  let most = 0;
  // Resolved once two tests are inside at the same time: each waits for it (5 s at most) before its request.
  let entered = 0;
  let bothInside;
  const together = new Promise((resolve) => { bothInside = resolve; });
  for (let index = 0; index < 20; index += 1) {
    test(`session ${index} sees its own /profile`, async () => {
      running += 1;
      most = Math.max(most, running);
      const session = stubd.session();
      try {
        await session.stub("GET", "/profile", { json: { name: `user ${index}` } });
        entered += 1;
        if (entered >= 2) bothInside();
        await Promise.race([together, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
        const answer = await session.fetch("/profile");
        assert.deepEqual(await answer.json(), { name: `user ${index}` });
        await session.expect("GET", "/profile", 1);
      } finally {
        running -= 1;
        await session.end();
      }
    });
  }
  test("they overlapped", () => {
    assert.ok(most > 1, `at most ${most} test ran at once`);
  });
});

test("a request without a session gets the fixture", async () => {
  const answer = await fetch(`${server.baseURL}/profile`);
  assert.deepEqual(await answer.json(), { name: "shared" });
});

test("a strict session fails on a stub no request reached, naming it", async () => {
  const session = stubd.session();
  await session.stub("GET", "/profile", { json: {} });
  await session.stub("POST", "/orders", { status: 201 }, { name: "place order" });
  await session.fetch("/profile");
  await assert.rejects(session.verifyStrict(), (error) => {
    assert.ok(error instanceof StubdExpectationError);
    assert.match(error.message, /place order: POST \/orders → 201, never requested/);
    assert.doesNotMatch(error.message, /GET \/profile/);
    return true;
  });
  await session.end();
});

test("an expectation that fails shows the near miss", async () => {
  const session = stubd.session();
  await session.stub("GET", "/users/octocat", { json: { login: "octocat" } });
  assert.equal((await session.fetch("/users/octocats")).status, 404);
  await assert.rejects(session.expect("GET", "/users/octocat", 1), (error) => {
    assert.match(error.message, /expected 1 × GET \/users\/octocat, got 0/);
    assert.match(error.message, /GET \/users\/octocats → .*octocat/);
    return true;
  });
  await session.end();
});

test("a sequence answers in turn, then repeats the last", async () => {
  const session = stubd.session();
  await session.stub("GET", "/flaky", { sequence: [{ status: 500 }, { status: 200, json: { ok: true } }] });
  const statuses = [];
  for (let i = 0; i < 3; i += 1) statuses.push((await session.fetch("/flaky")).status);
  assert.deepEqual(statuses, [500, 200, 200]);
  assert.equal(await session.count("GET", "/flaky"), 3);
  await session.end();
});

test("a fault reaches fetch as a network error", async () => {
  const session = stubd.session();
  await session.stub("GET", "/down", { fault: "reset" });
  await assert.rejects(session.fetch("/down").then((answer) => answer.text()), TypeError);
  await session.end();
});

test("a stream arrives as Server-Sent Events", async () => {
  const session = stubd.session();
  await session.stub("GET", "/scores", { stream: { events: [{ event: "score", data: { home: 1 } }, { data: "full time" }] } });
  const answer = await session.fetch("/scores");
  assert.match(answer.headers.get("content-type"), /text\/event-stream/);
  assert.equal(await answer.text(), 'event: score\ndata: {"home":1}\n\ndata: full time\n\n');
  await session.end();
});

test("a fixture file's routes, with a recorded body file, become the session's", async () => {
  const folder = mkdtempSync(join(tmpdir(), "stubd-kit-file-"));
  mkdirSync(join(folder, "__files"));
  writeFileSync(join(folder, "__files", "avatar.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(join(folder, "user.json"), JSON.stringify({ routes: [
    { request: { method: "GET", path: "/avatar" }, response: { bodyFile: "avatar.png" } },
  ] }));
  const session = stubd.session();
  const ids = await session.stubFile(join(folder, "user.json"));
  assert.equal(ids.length, 1);
  const answer = await session.fetch("/avatar");
  assert.equal(answer.headers.get("content-type"), "image/png");
  assert.deepEqual([...new Uint8Array(await answer.arrayBuffer())], [0x89, 0x50, 0x4e, 0x47]);
  await session.end();
});

test("a snapshot is canonical text of what the app sent", async () => {
  const session = stubd.session();
  await session.stub("POST", "/orders", { status: 201 }, { request: { anyOtherQuery: true } });
  const answer = await session.fetch("/orders?b=2&a=1", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"z":1,"a":2}' });
  assert.equal(answer.status, 201);
  assert.equal(await session.snapshot(), 'POST /orders\n  query: a=1&b=2\n  Accept: */*\n  Content-Type: application/json\n  body: {"a":2,"z":1}\n');
  await session.end();
});

test("a refused admin call says what to change", async () => {
  const session = stubd.session();
  await assert.rejects(session.addRoutes({ request: { method: "GET" } }), (error) => {
    assert.ok(error instanceof StubdAdminError);
    assert.equal(error.status, 400);
    assert.match(error.message, /POST \/__stubd\/routes: 400 /);
    return true;
  });
});

test("record once from the real API, replay after without it", async () => {
  const upstream = await startStubd(fixtures([
    { request: { method: "GET", path: "/weather" }, response: { json: { sky: "clear" } } },
  ]));
  const folder = join(mkdtempSync(join(tmpdir(), "stubd-kit-rec-")), "weather");
  try {
    const recording = stubd.session();
    await recording.useRecording(folder, { upstream: upstream.baseURL, mode: "record" });
    assert.deepEqual(await (await recording.fetch("/weather")).json(), { sky: "clear" });
    await recording.finishRecording({ mode: "record" });
    await recording.end();
  } finally {
    await upstream.stop();
  }
  assert.ok(readdirSync(folder).some((name) => name.endsWith(".json")), "the recording wrote a fixture file");
  const replay = stubd.session();
  await replay.useRecording(folder, { mode: "playback" });
  assert.deepEqual(await (await replay.fetch("/weather")).json(), { sky: "clear" });
  await replay.verifyStrict({ mode: "playback" });
  await replay.end();
  await assert.rejects(stubd.session().useRecording(join(folder, "none"), { mode: "playback" }), /STUBD_MODE=record/);
});

describe("sessionPerTest gives each test its own session", () => {
  const session = sessionPerTest(stubd0(), { beforeEach, afterEach });
  const seen = [];
  test("first", async () => {
    seen.push(session().id);
    await session().stub("GET", "/profile", { json: { name: "first" } });
    assert.deepEqual(await (await session().fetch("/profile")).json(), { name: "first" });
  });
  test("second does not see the first's stub", async () => {
    seen.push(session().id);
    assert.deepEqual(await (await session().fetch("/profile")).json(), { name: "shared" });
    assert.notEqual(seen[0], seen[1]);
  });
});

// Issue 59: tests run at once each get their own session, bound to their context (a module-wide
// "current" gave every test the last one's, and the teardown threw).
describe("sessionPerTest under concurrent tests", { concurrency: 10 }, () => {
  const session = sessionPerTest(stubd0(), { beforeEach, afterEach });
  let started = 0;
  let allStarted;
  const everyTestRuns = new Promise((resolve) => { allStarted = resolve; });
  for (let index = 0; index < 10; index++) {
    test(`concurrent ${index}`, async (t) => {
      await session(t).stub("GET", "/mine", { json: { id: index } });
      if (++started === 10) allStarted();
      await everyTestRuns;
      assert.throws(() => session(), /10 tests are running at once; pass the test's context/);
      assert.deepEqual(await (await session(t).fetch("/mine")).json(), { id: index });
    });
  }
});

// sessionPerTest is called while tests are declared, before `before` runs: a Stubd whose address
// is read when the test runs.
function stubd0() {
  return { session: () => stubd.session() };
}
