/**
 * A minimal PNG encoder and raster renderer, so sample datasets can ship real images made
 * from their own data (an elevation map, a histogram) without an image library.
 *
 * @module
 */

import { crc32 } from "node:zlib";
import { zlib } from "./conversions.ts";

function chunk(type: string, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * An 8-bit RGB image, rows top to bottom, 3 bytes per pixel.
 *
 * @example
 * ```ts
 * import { encodePng, type RgbImage } from "./png.ts";
 * import assert from "node:assert/strict";
 *
 * const image: RgbImage = { width: 1, height: 1, pixels: new Uint8Array([0, 128, 255]) };
 * assert.equal((await encodePng(image))[1], 0x50);
 * ```
 */
export interface RgbImage {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** `width * height * 3` bytes. */
  pixels: Uint8Array;
}

/**
 * Encodes an RGB image as PNG (8-bit truecolour, no interlace, filter 0 on every row).
 *
 * @example A 1×1 red pixel
 * ```ts
 * import { encodePng } from "./png.ts";
 * import assert from "node:assert/strict";
 *
 * const png = await encodePng({ width: 1, height: 1, pixels: new Uint8Array([255, 0, 0]) });
 * assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
 * ```
 */
export async function encodePng(image: RgbImage): Promise<Uint8Array> {
  const { width, height, pixels } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`PNG size must be positive integers, got ${width}x${height}`);
  }
  if (pixels.length !== width * height * 3) {
    throw new RangeError(`Expected ${width * height * 3} pixel bytes, got ${pixels.length}`);
  }
  const header = new Uint8Array(13);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, filter 0, no interlace
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    raw.set(pixels.subarray(y * width * 3, (y + 1) * width * 3), y * (1 + width * 3) + 1);
  }
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", await zlib(raw)),
    chunk("IEND", new Uint8Array()),
  ];
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

/** Colour stops of the viridis palette (dark blue → yellow), perceptually uniform. */
const VIRIDIS: readonly (readonly [number, number, number])[] = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/**
 * The viridis colour for `t` in [0, 1] (clamped), by linear interpolation between stops.
 *
 * @example
 * ```ts
 * import { viridis } from "./png.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(viridis(0), [68, 1, 84]);
 * assert.deepEqual(viridis(1), [253, 231, 37]);
 * ```
 */
export function viridis(t: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const f = x - i;
  const [a, b] = [VIRIDIS[i], VIRIDIS[i + 1]];
  return [0, 1, 2].map((k) => Math.round(a[k] + (b[k] - a[k]) * f)) as [number, number, number];
}

/**
 * Renders a row-major grid of numbers as a viridis heat map, each cell drawn as a
 * `scale`×`scale` block.
 *
 * @example
 * ```ts
 * import { renderGrid } from "./png.ts";
 * import assert from "node:assert/strict";
 *
 * const img = renderGrid([0, 1, 2, 3], 2, 2, 3);
 * assert.equal(img.width, 6);
 * assert.deepEqual([...img.pixels.subarray(0, 3)], [68, 1, 84]);
 * ```
 */
export function renderGrid(
  values: readonly number[],
  width: number,
  height: number,
  scale = 1,
): RgbImage {
  if (values.length !== width * height) {
    throw new RangeError(`Grid of ${width}x${height} needs ${width * height} values`);
  }
  const finite = values.filter(Number.isFinite);
  const lo = Math.min(...finite), hi = Math.max(...finite);
  const span = hi - lo || 1;
  const pixels = new Uint8Array(width * scale * height * scale * 3);
  for (let y = 0; y < height * scale; y++) {
    for (let x = 0; x < width * scale; x++) {
      const v = values[Math.floor(y / scale) * width + Math.floor(x / scale)];
      pixels.set(viridis((v - lo) / span), (y * width * scale + x) * 3);
    }
  }
  return { width: width * scale, height: height * scale, pixels };
}

/**
 * Renders a simple bar chart: one bar per value, viridis colours left to right, white
 * background, bars bottom-aligned.
 *
 * @example
 * ```ts
 * import { renderBars } from "./png.ts";
 * import assert from "node:assert/strict";
 *
 * const img = renderBars([1, 2, 4], { width: 90, height: 40 });
 * assert.equal(img.pixels.length, 90 * 40 * 3);
 * ```
 */
export function renderBars(
  values: readonly number[],
  size: { width: number; height: number },
): RgbImage {
  const { width, height } = size;
  const pixels = new Uint8Array(width * height * 3).fill(255);
  const max = Math.max(...values.filter(Number.isFinite), 0) || 1;
  const slot = width / Math.max(1, values.length);
  values.forEach((v, i) => {
    const barHeight = Math.round((Math.max(0, v) / max) * (height - 4));
    const colour = viridis(values.length > 1 ? i / (values.length - 1) : 0.5);
    const x0 = Math.round(i * slot + slot * 0.1), x1 = Math.round((i + 1) * slot - slot * 0.1);
    for (let y = height - barHeight; y < height; y++) {
      for (let x = x0; x < x1; x++) pixels.set(colour, (y * width + x) * 3);
    }
  });
  return { width, height, pixels };
}
