import assert from "node:assert/strict";
import { STYLESHEET } from "../../lib/display/style.ts";
import { checkStylesheet } from "./_safety.ts";

Deno.test("every rule is scoped under .tern, with the colour variables on the wrapper", () => {
  checkStylesheet(STYLESHEET);
  assert.ok(!STYLESHEET.includes(":root"));
  assert.match(STYLESHEET, /^\.tern\{--t-fg:/);
});

Deno.test("light and dark follow the front end's theme, then the OS preference", () => {
  assert.match(STYLESHEET, /@media \(prefers-color-scheme:dark\)\{\.tern\{--t-fg:#e6edf3/);
  assert.match(STYLESHEET, /body\[data-jp-theme-light=false\] \.tern,body\.vscode-dark \.tern/);
  assert.match(STYLESHEET, /body\[data-jp-theme-light=true\] \.tern,body\.vscode-light \.tern/);
  // JupyterLab's own variables come first wherever the front end has them.
  assert.match(STYLESHEET, /--t-text:var\(--jp-content-font-color1,var\(--t-fg\)\)/);
});

Deno.test("the stylesheet stays small enough to ship with every view", () => {
  assert.ok(STYLESHEET.length < 8_000, `${STYLESHEET.length} characters`);
});
