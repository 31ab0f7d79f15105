// Open speedscope files in speedscope's own app (the npm package's
// dist/release/index.html) in headless Chromium, as a user would through
// its file input, and say whether it showed each profile.
// Usage: node speedscope-load.mjs FILE...
// Prints "FILE: shown as TITLE" when the page's title names the profile,
// and "FILE: not shown: WHY" when speedscope reports an error (on the
// page, in a dialog or on its console) or shows nothing within a minute.
// Exits 0 when every file was shown, else 1.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, 'package.json'));
const { chromium } = require('playwright-core');
const app = 'file://' + join(here, 'node_modules/speedscope/dist/release/index.html');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Show one file in a page of its own; the line to print for it.
async function show(browser, file) {
	const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
	const errors = [];

	page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); d.dismiss(); });
	page.on('pageerror', (e) => errors.push(String(e.message || e)));
	// speedscope logs "Failed to load format" and its error, then shows
	// "Something went wrong"; the error's message comes as a JSHandle.
	page.on('console', async (m) => {
		if (m.type() !== 'error' && !/^Failed to load/.test(m.text()))
			return;
		const args = await Promise.all(m.args().map((a) =>
		    a.evaluate((v) => String(v && v.message || v)).catch(() => '')));
		errors.push(args.join(' ') || m.text());
	});
	await page.goto(app);
	await page.waitForSelector('#file', { state: 'attached' });
	await page.setInputFiles('#file', resolve(file));
	const deadline = Date.now() + 60000;
	try {
		for (;;) {
			const title = await page.title();
			if (/ - speedscope$/.test(title))
				return { shown: true, line: `${file}: shown as ${title}` };
			const failed = await page.evaluate(() =>
			    document.body.innerText.includes('Something went wrong'));
			if (failed || errors.length > 0 || Date.now() > deadline) {
				await sleep(200);	/* the console's message */
				return { shown: false, line: `${file}: not shown: ` +
				    (errors[0] || (failed ? 'something went wrong' :
				    'nothing after a minute')) };
			}
			await sleep(50);
		}
	} finally {
		await page.close();
	}
}

let browser, status = 0;
try {
	browser = await chromium.launch({
		executablePath: '/usr/bin/chromium', headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--no-first-run',
		    '--disable-background-networking', '--disable-component-update',
		    '--disable-sync'],
	});
	for (const file of process.argv.slice(2)) {
		const r = await show(browser, file);
		console.log(r.line);
		if (!r.shown)
			status = 1;
	}
} catch (e) {
	console.log(String(e.message || e).split('\n')[0]);
	status = 1;
}
if (browser)
	await browser.close();
process.exit(status);
