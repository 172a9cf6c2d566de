const root = await Deno.makeTempDir();
const enc = new TextEncoder();
const d = new Date(0);
let t = performance.now();
const jobs: Promise<void>[] = [];
for (let i = 0; i < 20000; i++) {
  const p = `${root}/part-${String(i).padStart(5, "0")}.csv`;
  jobs.push((async () => { await Deno.writeFile(p, enc.encode(`a,b,c\n${i},2,3\n${i},5,6\n`)); await Deno.utime(p, d, d); })());
  if (jobs.length >= 32) { await Promise.all(jobs); jobs.length = 0; }
}
await Promise.all(jobs);
console.log("async", performance.now() - t);
t = performance.now();
for (let i = 0; i < 20000; i++) {
  const p = `${root}/q-${String(i).padStart(5, "0")}.csv`;
  Deno.writeFileSync(p, enc.encode(`a,b,c\n${i},2,3\n${i},5,6\n`)); Deno.utimeSync(p, d, d);
}
console.log("sync", performance.now() - t);
await Deno.remove(root, { recursive: true });
