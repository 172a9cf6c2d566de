import { join } from "node:path";
const root = await Deno.makeTempDir();
const enc = new TextEncoder();
const d = new Date(0);
let t = performance.now();
for (let i = 0; i < 20000; i++) {
  const p = join(root, `q-${String(i).padStart(5, "0")}.csv`);
  Deno.writeFileSync(p, enc.encode(`a,b,c\n${i},2,3\n${i},5,6\n`));
}
console.log("write only", performance.now() - t);
t = performance.now();
for (let i = 0; i < 20000; i++) {
  const p = join(root, `q-${String(i).padStart(5, "0")}.csv`);
  Deno.utimeSync(p, d, d);
}
console.log("utime only", performance.now() - t);
t = performance.now();
for (let i = 0; i < 20000; i++) {
  const p = join(root, `r-${String(i).padStart(5, "0")}.csv`);
  Deno.writeFileSync(p, enc.encode(`a,b,c\n${i},2,3\n${i},5,6\n`));
}
console.log("write again", performance.now() - t);
await Deno.remove(root, { recursive: true });
