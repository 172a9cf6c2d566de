import assert from "node:assert/strict";
import { crc32 } from "node:zlib";
import { encodePng, renderBars, renderGrid, viridis } from "../../lib/sample/png.ts";

async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const body = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(body).arrayBuffer());
}

Deno.test("encodePng round-trips pixels through IHDR and IDAT with valid CRCs", async () => {
  const width = 3, height = 2;
  const pixels = Uint8Array.from({ length: width * height * 3 }, (_, i) => (i * 37) % 256);
  const png = await encodePng({ width, height, pixels });
  const view = new DataView(png.buffer);
  assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  const chunks: { type: string; data: Uint8Array }[] = [];
  for (let at = 8; at < png.length;) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
    assert.equal(view.getUint32(at + 8 + length), crc32(png.subarray(at + 4, at + 8 + length)));
    chunks.push({ type, data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  assert.deepEqual(chunks.map((c) => c.type), ["IHDR", "IDAT", "IEND"]);
  const ihdr = new DataView(chunks[0].data.buffer, chunks[0].data.byteOffset);
  assert.deepEqual([ihdr.getUint32(0), ihdr.getUint32(4)], [width, height]);
  assert.deepEqual([...chunks[0].data.subarray(8)], [8, 2, 0, 0, 0]);
  const raw = await inflate(chunks[1].data);
  for (let y = 0; y < height; y++) {
    const row = raw.subarray(y * (1 + width * 3), (y + 1) * (1 + width * 3));
    assert.equal(row[0], 0, "filter type none");
    assert.deepEqual([...row.subarray(1)], [
      ...pixels.subarray(y * width * 3, (y + 1) * width * 3),
    ]);
  }
});

Deno.test("encodePng rejects sizes that do not match the pixels", async () => {
  await assert.rejects(encodePng({ width: 0, height: 1, pixels: new Uint8Array() }), RangeError);
  await assert.rejects(encodePng({ width: 2, height: 1, pixels: new Uint8Array(3) }), /Expected 6/);
});

Deno.test("viridis clamps and interpolates between its stops", () => {
  assert.deepEqual(viridis(-1), viridis(0));
  assert.deepEqual(viridis(2), [253, 231, 37]);
  assert.deepEqual(viridis(0.5), [33, 145, 140]);
  assert.deepEqual(viridis(Number.NaN), viridis(0));
});

Deno.test("renderGrid scales cells; renderBars draws bars proportional to values", () => {
  const grid = renderGrid([0, 10, 20, 30], 2, 2, 2);
  assert.equal(grid.width, 4);
  const pixel = (
    x: number,
    y: number,
  ) => [...grid.pixels.subarray((y * 4 + x) * 3, (y * 4 + x) * 3 + 3)];
  assert.deepEqual(pixel(0, 0), viridis(0));
  assert.deepEqual(pixel(1, 1), viridis(0), "cell (0,0) covers 2x2 pixels");
  assert.deepEqual(pixel(3, 3), viridis(1));
  assert.throws(() => renderGrid([1, 2, 3], 2, 2), RangeError);

  const bars = renderBars([1, 2], { width: 20, height: 20 });
  const column = (x: number) =>
    Array.from({ length: 20 }, (_, y) => bars.pixels[(y * 20 + x) * 3 + 1] !== 255).filter(Boolean)
      .length;
  assert.equal(column(15), 16, "largest bar spans height - 4");
  assert.equal(column(5), 8, "half the value, half the height");
});
