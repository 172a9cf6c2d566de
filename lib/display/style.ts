/**
 * The stylesheet every tern view carries inline. Everything is scoped under the `.tern` wrapper,
 * including the colour variables, so the notebook's own styles and other outputs are untouched
 * (variables on `:root` made whole notebooks slow to restyle in xarray, pydata/xarray#5201).
 *
 * Colours follow the front end's theme rather than only the operating system's: JupyterLab's
 * `--jp-*` variables and `data-jp-theme-light` attribute, VS Code's `vscode-dark`/`vscode-light`
 * body classes, and `prefers-color-scheme` where neither says. Accent colours are chosen for
 * contrast on both backgrounds (pydata/xarray#4024 was dark text on a dark theme).
 *
 * @module
 */

/** Light palette, as custom properties. */
const LIGHT = "--t-fg:#1f2328;--t-muted:#59636e;--t-line:#d1d9e0;--t-soft:rgba(110,119,129,.08);" +
  "--t-accent:#0969da;--t-accent-soft:rgba(9,105,218,.10);--t-ok:#1a7f37;" +
  "--t-ok-soft:rgba(26,127,55,.10);--t-warn:#9a6700;--t-warn-soft:rgba(212,167,44,.16);" +
  "--t-bad:#cf222e;--t-bad-soft:rgba(207,34,46,.08);--t-badge:#3d444d;--t-badge-ok:#1a7f37;" +
  "--t-badge-guess:#9a6700";

/** Dark palette. */
const DARK = "--t-fg:#e6edf3;--t-muted:#9198a1;--t-line:#3d444d;--t-soft:rgba(145,152,161,.10);" +
  "--t-accent:#4493f8;--t-accent-soft:rgba(68,147,248,.16);--t-ok:#3fb950;" +
  "--t-ok-soft:rgba(63,185,80,.14);--t-warn:#d29922;--t-warn-soft:rgba(210,153,34,.16);" +
  "--t-bad:#f85149;--t-bad-soft:rgba(248,81,73,.12);--t-badge:#3d444d;--t-badge-ok:#238636;" +
  "--t-badge-guess:#9e6a03";

const RULES = [
  // Palettes: the OS preference first, then the front end's own theme, which wins.
  `.tern{${LIGHT}}`,
  `@media (prefers-color-scheme:dark){.tern{${DARK}}}`,
  `body[data-jp-theme-light=true] .tern,body.vscode-light .tern{${LIGHT}}`,
  `body[data-jp-theme-light=false] .tern,body.vscode-dark .tern,body.vscode-high-contrast .tern{${DARK}}`,
  // Wrapper: the front end's text colour and fonts when it has them.
  ".tern{--t-text:var(--jp-content-font-color1,var(--t-fg));" +
  "--t-border:var(--jp-border-color2,var(--t-line));" +
  "--t-code:var(--jp-code-font-family,ui-monospace,SFMono-Regular,Menlo,Consolas,monospace);" +
  "color:var(--t-text);font-family:var(--jp-ui-font-family,system-ui,-apple-system,'Segoe UI'," +
  "Roboto,sans-serif);font-size:13px;line-height:1.45;text-align:left}",
  ".tern *{box-sizing:border-box}",
  ".tern .t-card{border:1px solid var(--t-border);border-radius:8px;padding:12px 14px;" +
  "margin:2px 0;width:fit-content;min-width:min(100%,520px);max-width:min(100%,980px)}",
  ".tern .t-head{display:flex;align-items:baseline;gap:10px;flex-wrap:wrap;margin-bottom:4px}",
  ".tern .t-kind,.tern .t-label,.tern .t-table th{font-size:10.5px;font-weight:600;" +
  "letter-spacing:.07em;text-transform:uppercase}",
  ".tern .t-kind{color:var(--t-accent);white-space:nowrap}",
  ".tern .t-title{font-size:15px;font-weight:600;line-height:1.3;overflow-wrap:anywhere}",
  ".tern .t-path,.tern .t-mono,.tern .t-id,.tern pre.t-pre,.tern .t-coltype" +
  "{font-family:var(--t-code);font-size:12px}",
  ".tern .t-path{color:var(--t-muted);overflow-wrap:anywhere}",
  ".tern .t-muted,.tern .t-more,.tern .t-label,.tern details>summary,.tern .t-dl>dt,.tern .t-facts" +
  "{color:var(--t-muted)}",
  ".tern .t-facts{display:flex;flex-wrap:wrap;margin:4px 0}",
  ".tern .t-facts>span+span::before{content:'·';padding:0 7px;color:var(--t-line)}",
  ".tern .t-facts b{color:var(--t-text);font-weight:600}",
  ".tern .t-section{margin-top:10px}",
  ".tern .t-label{margin-bottom:3px}",
  // Tables: notebooks right-align and stripe cells; these rules win on specificity.
  ".tern table.t-table{border-collapse:collapse;border:none;margin:4px 0;font-size:12.5px;" +
  "width:auto;min-width:100%;table-layout:auto}",
  ".tern .t-table th,.tern .t-table td{text-align:left;padding:3px 14px 3px 0;border:none;" +
  "vertical-align:top;max-width:none;white-space:normal;overflow-wrap:break-word;background:none}",
  ".tern .t-table th{color:var(--t-muted);border-bottom:1px solid var(--t-border)}",
  ".tern .t-table tbody tr:nth-child(n){background:none;border-bottom:1px solid var(--t-soft)}",
  ".tern .t-table tbody tr:nth-child(n):hover{background:var(--t-soft)}",
  ".tern .t-table .t-num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}",
  ".tern .t-table .t-nowrap{white-space:nowrap}",
  ".tern .t-table .t-name{overflow-wrap:anywhere;min-width:12em}",
  // Phrases wrap between words; only a word longer than the cell breaks.
  ".tern .t-table .t-wrap{overflow-wrap:break-word;min-width:12em;max-width:36em}",
  ".tern .t-table th{white-space:nowrap}",
  ".tern .t-table th.t-data{text-transform:none;letter-spacing:0;font-size:12px;" +
  "color:var(--t-text)}",
  ".tern .t-table .t-coltype{color:var(--t-muted);text-transform:none;font-weight:normal;" +
  "letter-spacing:0}",
  ".tern .t-scroll{overflow-x:auto;max-width:100%}",
  // DataFrames: one line per row (long text is cut, whole in the tooltip), nulls set apart.
  ".tern .t-frame td{white-space:nowrap}",
  ".tern .t-frame td.t-null{color:var(--t-muted);font-style:italic}",
  ".tern .t-frame tr.t-gap td{color:var(--t-muted);font-style:italic;text-align:center}",
  ".tern .t-frame th{max-width:24em;overflow:hidden;text-overflow:ellipsis}",
  // Nested AVUs: one step of indent per level (the metadata view stops at 8).
  ...Array.from(
    { length: 8 },
    (_, level) => `.tern .t-table td.t-d${level + 1}{padding-left:${(level + 1) * 18}px}`,
  ),
  // Key/value grid.
  ".tern .t-dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:3px 14px;margin:4px 0}",
  ".tern .t-dl>dt,.tern .t-dl>dd{margin:0;font-weight:normal}",
  ".tern .t-dl>dt{white-space:nowrap}",
  ".tern .t-dl>dd{overflow-wrap:anywhere}",
  // Icons drawn in CSS: no images, no fonts.
  ".tern .t-ico{display:inline-block;position:relative;margin-right:6px}",
  ".tern .t-ico-dir{width:13px;height:10px;top:1px;background:var(--t-accent);" +
  "border-radius:1px 2px 2px;opacity:.85}",
  ".tern .t-ico-dir::before{content:'';position:absolute;left:0;top:-2px;width:6px;height:3px;" +
  "background:inherit;border-radius:1px 1px 0 0}",
  ".tern .t-ico-file{width:10px;height:12px;top:2px;margin-left:1px;margin-right:8px;" +
  "border:1.5px solid var(--t-muted);border-radius:1px;opacity:.8}",
  // Chips, badges and flags.
  ".tern .t-chips,.tern .t-flags{display:flex;flex-wrap:wrap;gap:4px 6px;margin:4px 0}",
  ".tern .t-chip,.tern .t-flag{display:inline-block;padding:1px 8px;font-size:11.5px;" +
  "overflow-wrap:anywhere}",
  ".tern .t-chip{border-radius:999px;background:var(--t-accent-soft);color:var(--t-accent)}",
  ".tern .t-chip-plain{background:var(--t-soft);color:var(--t-text)}",
  ".tern .t-flag{border-radius:4px;font-weight:600;background:var(--t-warn-soft);color:var(--t-warn)}",
  ".tern .t-flag-bad{background:var(--t-bad-soft);color:var(--t-bad)}",
  ".tern .t-flag-ok{background:var(--t-ok-soft);color:var(--t-ok)}",
  ".tern .t-badge{display:inline-flex;border-radius:4px;overflow:hidden;font-size:11px;" +
  "line-height:18px;text-decoration:none;align-self:center}",
  ".tern .t-badge>span{padding:0 6px;white-space:nowrap;color:#fff}",
  ".tern .t-badge>span:first-child{background:var(--t-badge)}",
  ".tern .t-badge>span+span{background:var(--t-badge-ok);font-weight:600}",
  ".tern .t-badge.t-unknown>span+span{background:var(--t-muted)}",
  ".tern .t-badge.t-guess>span+span{background:var(--t-badge-guess)}",
  ".tern a.t-badge:hover{filter:brightness(1.1);text-decoration:none}",
  // Links.
  ".tern a{color:var(--t-accent);text-decoration:none}",
  ".tern a:hover{text-decoration:underline}",
  // Selectable preformatted text (citations, JSON).
  ".tern pre.t-pre{margin:4px 0;padding:8px 10px;border-radius:6px;background:var(--t-soft);" +
  "border:none;border-left:3px solid var(--t-accent);white-space:pre-wrap;word-break:normal;" +
  "overflow-wrap:break-word;" +
  "line-height:1.5;color:var(--t-text);user-select:text;max-height:28em;overflow:auto}",
  ".tern pre.t-json{border-left-color:var(--t-line)}",
  // Collapsible sections.
  ".tern details{margin:6px 0}",
  ".tern details>summary{cursor:pointer;font-size:12px;display:list-item;list-style-position:inside}",
  ".tern details>summary:hover{color:var(--t-accent)}",
  ".tern .t-desc{white-space:pre-line;overflow-wrap:anywhere;margin:2px 0}",
  ".tern .t-more{font-size:12px;margin-top:4px}",
  ".tern .t-strike{text-decoration:line-through}",
  // Notices and errors.
  ".tern .t-note{padding:6px 10px;border-radius:6px;background:var(--t-soft);color:var(--t-muted);" +
  "margin:6px 0}",
  ".tern .t-card.t-error{border-color:var(--t-bad);border-left-width:4px;background:var(--t-bad-soft)}",
  ".tern .t-error .t-kind{color:var(--t-bad)}",
  // Progress: one line that updates in place.
  ".tern .t-progress{display:flex;align-items:center;gap:10px;font-variant-numeric:tabular-nums;" +
  "font-size:12.5px;padding:2px 0}",
  ".tern .t-bar{flex:0 0 200px;height:8px;border-radius:999px;background:var(--t-soft);" +
  "border:1px solid var(--t-border);overflow:hidden}",
  ".tern .t-bar>span{display:block;height:100%;background:var(--t-accent)}",
  ".tern .t-done .t-bar>span{background:var(--t-ok)}",
  ".tern .t-failed .t-bar>span{background:var(--t-bad)}",
  ".tern .t-what{font-weight:600}",
];

/**
 * The stylesheet, minified, scoped under `.tern`.
 *
 * @example
 * ```ts
 * import { STYLESHEET } from "./style.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(STYLESHEET.startsWith(".tern{"));
 * assert.equal(STYLESHEET.includes(":root"), false);
 * ```
 */
export const STYLESHEET: string = RULES.join("");
