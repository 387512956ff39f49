// The browser benchmark page (examples/bench/) in headless Chromium: it runs
// every case on every path (short budgets), shows the table and the chart,
// and a screenshot of it is not blank: the chart's three bar colours are in it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serve } from '../examples/bench/serve.js';
import { ROOT } from './helpers.js';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const COLORS = { 'wasm-simd': [0x1f, 0x6f, 0xeb], 'wasm-scalar': [0xd2, 0x99, 0x22], auto: [0x2d, 0xa4, 0x4e] };

let served;
let browser;

beforeAll(async () => {
  served = await serve(0);
  // launch() gives Chromium its own new empty profile directory.
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: FLAGS });
});

afterAll(async () => {
  await browser?.close();
  served?.server.close();
});

/** Counts, in a PNG, the pixels that are not white and those of each colour (decoded by Chromium itself). */
async function pixels(png) {
  const page = await browser.newPage();
  const counts = await page.evaluate(async ({ base64, colors }) => {
    const blob = await (await fetch(`data:image/png;base64,${base64}`)).blob();
    const image = await createImageBitmap(blob);
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    const out = { total: image.width * image.height, nonWhite: 0 };
    for (const name of Object.keys(colors)) out[name] = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] < 250 || data[i + 1] < 250 || data[i + 2] < 250) out.nonWhite++;
      for (const [name, [r, g, b]] of Object.entries(colors)) {
        if (Math.abs(data[i] - r) < 8 && Math.abs(data[i + 1] - g) < 8 && Math.abs(data[i + 2] - b) < 8) out[name]++;
      }
    }
    return out;
  }, { base64: png.toString('base64'), colors: COLORS });
  await page.close();
  return counts;
}

test('the benchmark page runs every case on every path and shows a table and a chart', async () => {
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${served.url}?quick`);
  await page.waitForFunction(() => window.bench !== undefined);
  const result = await page.evaluate(() => window.bench);
  expect(errors).toEqual([]);
  expect(result.error).toBeUndefined();

  const { rows } = result;
  expect(rows.map((r) => r.name)).toEqual([
    'pack Float32Array 16', 'unpack Float32Array 16', 'pack Float32Array 4 K', 'unpack Float32Array 4 K',
    'pack Float32Array 1 M', 'unpack Float32Array 1 M', 'pack Int32Array 4 K', 'unpack Int32Array 4 K',
    'encodeBMP 1 K chars', 'decodeBMP 1 K chars',
  ]);
  for (const row of rows) {
    expect(row.base).toBeGreaterThan(0);
    for (const path of ['wasm-simd', 'wasm-scalar', 'auto']) {
      expect(row.times[path]).toBeGreaterThan(0);
      expect(Number.isFinite(row.ratios[path])).toBe(true);
    }
  }
  expect(await page.locator('#table tbody tr').count()).toBe(rows.length);
  expect(await page.locator('#chart svg rect.bar').count()).toBe(3 * rows.length);
  expect(await page.locator('#env').textContent()).toContain('auto backend: simd');

  const png = await page.screenshot({ fullPage: true });
  await page.close();
  // Kept for a look after the run (build/ is never committed).
  mkdirSync(join(ROOT, 'build'), { recursive: true });
  writeFileSync(join(ROOT, 'build/bench-page.png'), png);
  const counts = await pixels(png);
  expect(counts.nonWhite / counts.total).toBeGreaterThan(0.02);
  for (const name of Object.keys(COLORS)) expect(counts[name]).toBeGreaterThan(200);
});
