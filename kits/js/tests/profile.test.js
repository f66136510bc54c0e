// docs/TESTING.md's JavaScript example, as the page shows it (Tests/docs/snippets_test.py checks
// each of its lines is here): run with STUBD_BASE_URL naming a stubd (Tests/kits/kits_test.py's).
import { test, beforeEach, afterEach } from "node:test";   // or from "vitest"; Jest has them as globals
import assert from "node:assert/strict";
import { Stubd, sessionPerTest } from "@stubd/kit";

const stubd = new Stubd();                                  // STUBD_BASE_URL, or http://127.0.0.1:8080
const session = sessionPerTest(stubd, { beforeEach, afterEach }, { strict: true });

test("shows the user's name", async () => {
  await session().stub("GET", "/users/octocat", { json: { login: "octocat", name: "The Octocat" } });

  const answer = await session().fetch("/users/octocat");  // the app's request, in the session
  assert.deepEqual(await answer.json(), { login: "octocat", name: "The Octocat" });
  await session().expect("GET", "/users/octocat", 1);       // fails listing the session's near misses
});
