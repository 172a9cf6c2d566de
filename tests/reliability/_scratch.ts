import { assertSafeHtml } from "./_html.ts";
const cases = [
  `<div class="tern">ok &lt;script&gt;</div>`,
  `<div><img src=x onerror=alert(1)></div>`,
  `<div><a href=" jav&#x09;ascript:alert(1)">x</a></div>`,
  `<div><a href="JaVaScRiPt:alert(1)">x</a></div>`,
  `<div title="x" onmouseover="a()">x</div>`,
  `<div><scr<script>ipt>alert(1)</script></div>`,
  `<div style="background:url(javascript:alert(1))">x</div>`,
  `<div><a href="https://ok.example/">x</a></div>`,
];
for (const c of cases) {
  try {
    console.log("SAFE", JSON.stringify(assertSafeHtml(c, "c")));
  } catch (e) {
    console.log("REJECT", (e as Error).message);
  }
}
