// Starts `stubd serve` for the kit's tests: STUBD_BIN (or ../../.build/debug/stubd) on port 0 of
// 127.0.0.1, its port read from the banner; `stop()` ends it.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
export const binary = process.env.STUBD_BIN ?? resolve(here, "../../../.build/debug/stubd");

/** A fixtures folder holding `routes` as one file. */
export function fixtures(routes) {
  const folder = mkdtempSync(join(tmpdir(), "stubd-kit-js-"));
  writeFileSync(join(folder, "routes.json"), JSON.stringify({ routes }));
  return folder;
}

/** `stubd serve folder` on an ephemeral port: `{baseURL, stop}`. */
export function startStubd(folder, ...extra) {
  const child = spawn(binary, ["serve", folder, "--port", "0", ...extra], { stdio: ["ignore", "pipe", "ignore"] });
  return new Promise((resolveStart, reject) => {
    let banner = "";
    const timer = setTimeout(() => reject(new Error(`stubd did not start within 20 s:\n${banner}`)), 20000);
    child.on("exit", (code) => reject(new Error(`stubd exited (${code}):\n${banner}`)));
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      banner += chunk;
      const port = banner.match(/on http:\/\/127\.0\.0\.1:(\d+)/)?.[1];
      if (port && /dashboard:|admin API off/.test(banner)) {
        clearTimeout(timer);
        child.stdout.resume();
        resolveStart({
          baseURL: `http://127.0.0.1:${port}`,
          stop: () => new Promise((done) => {
            child.removeAllListeners("exit");
            child.on("exit", done);
            child.kill("SIGTERM");
          }),
        });
      }
    });
  });
}
