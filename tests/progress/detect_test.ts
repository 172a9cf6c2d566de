import assert from "node:assert/strict";
import {
  isJupyterKernel,
  isTerminal,
  kernelDisplay,
  progressTarget,
} from "../../lib/progress/detect.ts";

Deno.test("outside the kernel nothing reads Deno.jupyter, and nothing throws", () => {
  // Reading Deno.jupyter here would throw; the detection must not.
  assert.throws(() => (Deno as unknown as { jupyter: unknown }).jupyter);
  assert.equal(isJupyterKernel(), false);
  assert.equal(kernelDisplay(), undefined);
  assert.equal(progressTarget(), isTerminal() ? "terminal" : "none");
});

Deno.test("the kernel is recognised by its main module, without permissions", async () => {
  const script = "import { isJupyterKernel } from " +
    JSON.stringify(new URL("../../lib/progress/detect.ts", import.meta.url).href) +
    "; console.log(isJupyterKernel(), Deno.mainModule.includes('$deno$eval'));";
  const child = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-prompt", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(new TextDecoder().decode(child.stdout).trim(), "false true");
});
