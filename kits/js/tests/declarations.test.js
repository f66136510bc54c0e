// src/index.d.ts names exactly what src/index.js exports, and each class's methods exist
// (no TypeScript here: npm is not reachable; a user's tsc checks the types themselves).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as kit from "../src/index.js";

const declarations = readFileSync(new URL("../src/index.d.ts", import.meta.url), "utf8");

test("every value export is declared, and every declared value is exported", () => {
  const declared = [...declarations.matchAll(/^export (?:class|function|const) (\w+)/gm)].map((m) => m[1]).sort();
  assert.deepEqual(declared, Object.keys(kit).sort());
});

test("every method a class declares exists on it", () => {
  for (const [name, body] of declarations.matchAll(/^export class (\w+)[^{]*\{([\s\S]*?)^\}/gm)) {
    const members = [...body.matchAll(/^  (?:readonly )?(\w+)[(?:]/gm)].map((m) => m[1]).filter((m) => m !== "constructor");
    for (const member of members) {
      const owner = kit[name].prototype;
      const present = member in owner || ["stubd", "id", "baseURL", "token", "status", "problems"].includes(member);
      assert.ok(present, `${name}.${member} is declared but not defined`);
    }
  }
});
