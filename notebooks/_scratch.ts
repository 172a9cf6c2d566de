import { connect } from "../mod.ts";
import { startServer } from "../server.ts";
import {
  CURATED_PATH,
  DEMO_USER,
  ensureSampleStore,
  MANY_FILES_PATH,
  SAMPLE_CASES,
} from "../lib/sample/mod.ts";
import { JUPYTER_DISPLAY } from "../lib/display/bundle.ts";
import { Citation } from "../lib/metadata/cite.ts";

const root = await ensureSampleStore();
await using server = await startServer({ root, port: 0, quiet: true });
const store = connect({ url: server.url, token: DEMO_USER.token, cacheDir: false });
const parts: string[] = [];
const show = async (label: string, value: any) => {
  const t0 = performance.now();
  const b = await value[JUPYTER_DISPLAY]();
  parts.push(
    `<h3 style="font-family:sans-serif">${label} (${(performance.now() - t0).toFixed(0)} ms, ${
      b["text/html"].length
    } B)</h3>${b["text/html"]}<pre>${b["text/plain"].replace(/</g, "&lt;")}</pre>`,
  );
};
console.log(SAMPLE_CASES);
await show("folder", store.folder(MANY_FILES_PATH));
await show("dataset", store.dataset(SAMPLE_CASES.fullMetadata));
await show("datasets", store.folder(CURATED_PATH).datasets());
for (const [k, p] of Object.entries(SAMPLE_CASES)) {
  if (typeof p === "string" && p.includes("commons_repo")) {
    await show(`dataset ${k}`, store.dataset(p));
  }
}
await show("sameTitle", store.dataset(SAMPLE_CASES.sameTitle[1]));
await show("metadata", await store.dataset(SAMPLE_CASES.fullMetadata).metadata());
await show("citation", await Citation.of(store.dataset(SAMPLE_CASES.fullMetadata)));
await show("missing", store.folder("/iplant/home/shared/nope"));
const theme = Deno.args[0] ?? "light";
for (const [i, part] of parts.entries()) {
  await Deno.writeTextFile(
    `/tmp/scratch/p${i}-${theme}.html`,
    `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0;background:${
      theme === "dark" ? "#111" : "#fff"
    };padding:16px" ${theme === "dark" ? 'data-jp-theme-light="false"' : ""}>${part}</body></html>`,
  );
}
await Deno.writeTextFile(
  `/tmp/scratch/out-${theme}.html`,
  `<!doctype html><html><head><meta charset="utf-8"></head><body style="background:${
    theme === "dark" ? "#111" : "#fff"
  };padding:16px" ${theme === "dark" ? 'data-jp-theme-light="false"' : ""}>${
    parts.join("\n")
  }</body></html>`,
);
