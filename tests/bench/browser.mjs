// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The ccstools authors
//
// For make bench: how long a viewer takes to show a profile in headless
// Chromium, and the page's memory then.  Run as
//   node tests/bench/browser.mjs speedscope FILE   (speedscope loads FILE)
//   node tests/bench/browser.mjs html FILE.html    (our ccs2html viewer)
// Prints one line of JSON: {"ms": ..., "heapMB": ..., "rendererMB": ...,
// "error": ...}.
// speedscope is the npm package's own app (dist/release/index.html); the
// profile is given to its file input, as a user would, and the time runs
// from then until the title names the profile and two frames have been
// drawn.  Our viewer is timed from navigation until it marks itself ready
// (body[data-ready=true]) and two frames have been drawn.  Memory is the
// page's JavaScript heap, from the DevTools protocol, and the renderer
// processes' peak resident memory, which also counts typed arrays and the
// page's own text.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '../js/package.json'));
const { chromium } = require('playwright-core');

const [mode, file] = process.argv.slice(2);
const timeout = 300000;
const out = { ms: null, heapMB: null, rendererMB: null, error: null };
let browser;

async function frames(page) {
	await page.evaluate(() => new Promise((r) =>
	    requestAnimationFrame(() => requestAnimationFrame(r))));
}

// The renderers' peak resident memory (VmHWM), which counts the typed
// arrays and the page's text that the JS heap does not.
async function rendererPeak() {
	const b = await browser.newBrowserCDPSession();
	const { processInfo } = await b.send('SystemInfo.getProcessInfo');
	let kb = 0;
	for (const p of processInfo.filter((q) => q.type === 'renderer')) {
		const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p.id}/status`, 'utf8'));
		kb += m ? Number(m[1]) : 0;
	}
	return kb ? Math.round(kb / 102.4) / 10 : null;
}

try {
	browser = await chromium.launch({
		executablePath: '/usr/bin/chromium', headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--no-first-run',
		    '--disable-background-networking', '--disable-component-update',
		    '--disable-sync', '--js-flags=--max-old-space-size=8192'],
	});
	const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
	page.setDefaultTimeout(timeout);
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('Performance.enable');
	let t0;
	if (mode === 'speedscope') {
		const app = join(here, '../js/node_modules/speedscope/dist/release/index.html');
		await page.goto('file://' + app);
		await page.waitForSelector('#file', { state: 'attached' });
		t0 = Date.now();
		await page.setInputFiles('#file', resolve(file));
		await page.waitForFunction(() => / - speedscope$/.test(document.title),
		    null, { timeout, polling: 50 });
		await frames(page);
	} else {
		t0 = Date.now();
		await page.goto('file://' + resolve(file), { timeout });
		await page.waitForSelector('body[data-ready=true]', { timeout });
		await frames(page);
	}
	out.ms = Date.now() - t0;
	const { metrics } = await cdp.send('Performance.getMetrics');
	const heap = metrics.find((m) => m.name === 'JSHeapUsedSize');
	out.heapMB = heap ? Math.round(heap.value / 1e5) / 10 : null;
	out.rendererMB = await rendererPeak();
} catch (e) {
	out.error = String(e.message || e).split('\n')[0];
}
if (browser)
	await browser.close();
console.log(JSON.stringify(out));
