import assert from "node:assert/strict";
import { userAgent, VERSION } from "../../lib/client/version.ts";
import config from "../../deno.json" with { type: "json" };

Deno.test("VERSION comes from deno.json", () => {
  assert.equal(VERSION, config.version);
});

Deno.test("userAgent: tern and Deno versions, after the caller's product", () => {
  assert.equal(userAgent(), `tern/${VERSION} (Deno/${Deno.version.deno})`);
  assert.equal(userAgent("lab/2"), `lab/2 tern/${VERSION} (Deno/${Deno.version.deno})`);
  assert.equal(userAgent("  "), userAgent());
});
