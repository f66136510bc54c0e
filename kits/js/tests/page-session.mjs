// The Chromium check's Node half (Tests/kits/page_session_test.py): the kit opens a session,
// stubs /profile in it, and hands its header to a Playwright-shaped context — whose
// setExtraHTTPHeaders this script prints for the harness to give Chromium as Playwright does
// (DevTools' Network.setExtraHTTPHeaders). `check ID` then expects exactly one /profile in the
// session and runs the strict check. Not a test file of its own (no .test. in its name).
import { Stubd, useSessionInContext } from "../src/index.js";

const [, , step, id] = process.argv;
const stubd = new Stubd({ baseURL: process.env.STUBD_BASE_URL });
if (step === "open") {
  const session = stubd.session();
  await session.stub("GET", "/profile", { json: { name: "from the session" } });
  const headers = {};
  await useSessionInContext({ setExtraHTTPHeaders: async (given) => Object.assign(headers, given) }, session);
  console.log(JSON.stringify({ id: session.id, headers }));
} else if (step === "check") {
  const session = stubd.session(id);
  await session.expect("GET", "/profile", 2);
  await session.verifyStrict({ mode: "playback" });
  await session.end();
  console.log("ok");
} else {
  console.error("usage: node page-session.mjs open | check ID");
  process.exit(2);
}
