import assert from "node:assert/strict";
import { renderError } from "../../lib/display/error.ts";
import { JUPYTER_DISPLAY } from "../../lib/display/bundle.ts";
import { AuthError, NotFoundError, SignInRequiredError, TernError } from "../../mod.ts";
import { checkView, HOSTILE } from "./_safety.ts";

Deno.test("an error shows its type, what failed, the path, code, status and endpoint", () => {
  const error = new NotFoundError(
    '"/iplant/home/demo/nope" does not exist or is not visible to you (filesystem/paged-directory, HTTP 500 ERR_DOES_NOT_EXIST).',
    {
      path: "/iplant/home/demo/nope",
      code: "ERR_DOES_NOT_EXIST",
      status: 500,
      endpoint: "filesystem/paged-directory",
    },
  );
  const bundle = error[JUPYTER_DISPLAY]();
  const { root, text } = checkView(bundle);
  assert.equal(root.querySelector(".t-kind")!.textContent, "Error");
  assert.equal(root.querySelector(".t-title")!.textContent, "NotFoundError");
  assert.equal(root.querySelector(".t-desc")!.textContent, error.message);
  assert.match(root.querySelector(".t-card")!.getAttribute("class")!, /t-error/);
  const pairs = [...root.querySelectorAll("dt")].map((term) => term.textContent);
  assert.deepEqual(pairs, ["path", "code", "status", "endpoint"]);
  assert.match(text, /Check the path/);
  assert.equal(
    bundle["text/plain"],
    `NotFoundError: ${error.message}\n  path:     /iplant/home/demo/nope\n  code:     ERR_DOES_NOT_EXIST\n  status:   HTTP 500\n  endpoint: filesystem/paged-directory`,
  );
});

Deno.test("subclasses keep their own name and hint; the stack and cause never show", () => {
  const cause = new Error("Bearer secret-token-123 leaked?");
  const error = new SignInRequiredError("Sign-in needed for filesystem/root.", { cause });
  const bundle = error[JUPYTER_DISPLAY]();
  const { text } = checkView(bundle);
  assert.match(text, /SignInRequiredError/);
  assert.match(text, /TERRAIN_TOKEN/);
  for (const shown of [bundle["text/html"], bundle["text/plain"]]) {
    assert.ok(!shown.includes("secret-token-123"));
    assert.ok(!shown.includes("    at "), "a stack trace is shown");
  }
  assert.match(checkView(new AuthError("Refused.")[JUPYTER_DISPLAY]()).text, /fresh token/);
  assert.equal(checkView(new TernError("Plain.")[JUPYTER_DISPLAY]()).text.includes("Plain."), true);
});

Deno.test("hostile messages and paths are text", () => {
  const bundle = renderError({
    name: HOSTILE[0],
    message: HOSTILE.join(" "),
    path: HOSTILE[1],
    code: HOSTILE[2],
    endpoint: HOSTILE[3],
  });
  const { text } = checkView(bundle);
  for (const value of HOSTILE) assert.ok(text.includes(value), value);
});
