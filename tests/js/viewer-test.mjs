// The HTML viewer in a real browser: Debian's Chromium driven by
// playwright-core.  Run by tests/tools/test_ccs2html.c as
//   node tests/js/viewer-test.mjs BINDIR SCRATCHDIR
// Exit 0 when every check passes; failures are printed one per line.
import { execFileSync, execSync, spawnSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [bindir, scratch] = process.argv.slice(2);
mkdirSync(scratch, { recursive: true });
let failures = 0;
function check(ok, what) {
	if (ok)
		console.log(`ok - ${what}`);
	else {
		console.log(`not ok - ${what}`);
		failures++;
	}
}
function html(input, out, ...args) {
	execFileSync(`${bindir}/ccs2html`, [...args, '-o', out, input]);
	return out;
}

const browser = await chromium.launch({
	executablePath: '/usr/bin/chromium', headless: true,
	args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function open(file, timeout = 10000, dpr = 1) {
	const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: dpr });
	page.requests = [];
	page.dialogs = [];
	page.errors = [];
	page.on('request', (r) => { if (!r.url().startsWith('file:')) page.requests.push(r.url()); });
	page.on('dialog', (d) => { page.dialogs.push(d.message()); d.dismiss(); });
	page.on('pageerror', (e) => page.errors.push(e.message));
	await page.goto('file://' + file);
	await page.waitForSelector('body[data-ready=true]', { timeout });
	return page;
}
const num = (page, sel) => page.$eval(sel, (e) => Number(e.dataset.v));

// ---- the bundled example: GHC's -P profile of the paper's program ----
{
	const page = await open(html('tests/data/ghc/mj.P.prof', `${scratch}/mj.html`));
	check(page.requests.length === 0, 'no network requests');
	check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
	check(await page.$$eval('.tree .row:not(.head)', (r) => r.length) < 40,
	    'the tree is lazy: only the first levels are in the DOM');

	// Expand the hot arm: rev under MAIN;CAF;h;j, 46 of 47 ticks.
	await page.click('#expand-hot');
	const arm = await page.$$eval('.row.arm .label', (l) => l.map((e) => e.textContent));
	check(arm.join(';') === 'MAIN;CAF;h;j;rev', `hot arm expanded: ${arm.join(';')}`);
	check(await page.$eval('.row.hot .label', (e) => e.textContent) === 'rev', 'hot stack is rev');
	check(await num(page, '.row.hot .self') === 46, 'hot stack has 46 ticks');
	check((await page.textContent('#hot-stack')) === '<MAIN.MAIN;Main.CAF;Main.h;Main.j;Main.rev>',
	    'hot stack shown in full');

	// De-select rev: j's flat value becomes its old inherited value.
	await page.click('#tab-flat');
	const jInh = await num(page, 'tr[data-name="Main.j"] td.inh');
	const jSelf = await num(page, 'tr[data-name="Main.j"] td.self');
	check(jInh === 46 && jSelf === 0, `j before: self ${jSelf}, inherited ${jInh}`);
	await page.uncheck('tr[data-name="Main.rev"] input');
	await page.waitForSelector('tr[data-name="Main.rev"].off');
	check(await num(page, 'tr[data-name="Main.j"] td.self') === jInh,
	    'after de-selecting rev, j self = its old inherited');
	check(await num(page, 'tr[data-name="Main.i"] td.self') === 1, 'i gets the rev tick under i');
	check(await num(page, 'tr[data-name="MAIN.MAIN"] td.inh') === 47, 'total conserved');

	// Sorting by any column.
	await page.click('th[data-col="name"]');
	const names = await page.$$eval('tbody tr td:nth-child(2)', (t) => t.map((e) => e.textContent));
	check(names.length > 5 && names.every((n, i) => i === 0 || names[i - 1] <= n),
	    'sorted by name');

	// Select patterns: only h and j (and the root).
	await page.click('#reset');
	await page.fill('#select', 'h Main.j');
	await page.click('#apply');
	check(await num(page, 'tr[data-name="Main.j"] td.self') === 46, 'select h j: j self 46');
	check(await num(page, 'tr[data-name="MAIN.MAIN"] td.self') === 1,
	    'select h j: the root gets the rest');

	// Threshold: stacks below 10 inclusive ticks fold into their parent.
	await page.click('#reset');
	await page.fill('#min', '10');
	await page.click('#apply');
	check(/ 8 subtrees pruned, 1 ticks folded into parents/.test(await page.textContent('#status')),
	    `threshold reported as ccs-prune -v does: ${await page.textContent('#status')}`);
	check(await num(page, 'tr[data-name="MAIN.MAIN"] td.inh') === 47, 'threshold conserves the total');
	check(await page.$('tr[data-name="Main.i"]') === null, 'i (1 tick) pruned away');
	// A count metric's pruned counts are dropped, and said to be.
	{
		const cli = spawnSync(`${bindir}/ccs-prune`, ['-v', '--min', 'entries=100',
		    '-o', '/dev/null', 'tests/data/ghc/mj.P.prof']).stderr;
		await page.selectOption('#metric', { label: 'entries (calls)' });
		await page.fill('#min', '100');
		await page.click('#apply');
		const st = await page.textContent('#status');
		const n = /(\d+) subtrees pruned/.exec(st), x = /(\d+) calls dropped \(counts do not fold\)/.exec(st);
		const cn = /(\d+) subtrees pruned/.exec(cli.toString()), cx = /entries: (\d+) calls dropped/.exec(cli.toString());
		check(n && x && cn && cx && n[1] === cn[1] && x[1] === cx[1] && x[1] !== '0',
		    `counts pruned: ${st} (ccs-prune -v: ${cli.toString().replace(/\n/g, '; ')})`);
		await page.selectOption('#metric', { label: 'ticks (ticks)' });
	}

	// Exclude pattern.
	await page.fill('#min', '');
	await page.fill('#exclude', 'h');
	await page.click('#apply');
	check(await num(page, 'tr[data-name="Main.CAF"] td.self') === 46, 'exclude h folds 46 into CAF');

	// Search.
	await page.click('#reset');
	await page.click('#tab-tree');
	await page.fill('#search', 'rev');
	await page.click('#find');
	check(await page.$eval('.row.hit .label', (e) => e.textContent) === 'rev', 'search finds rev');

	// Callers before any is chosen: a link to those of the largest self
	// cost, chosen again when the selection changes, shown when asked.
	await page.click('#tab-callers');
	let callersText = await page.textContent('#view-callers');
	check(/Or see those of Main\.rev, the largest self cost/.test(callersText) &&
	    !/Callers of/.test(callersText), `callers at first: ${callersText}`);
	await page.fill('#deselect', 'rev');
	await page.click('#apply');
	await page.click('#callers-largest');
	callersText = await page.textContent('#view-callers');
	check(/Callers of Main\.j: 46 ticks in 3 calling contexts\./.test(callersText),
	    `callers of the largest after de-selecting rev: ${callersText}`);
	await page.click('#reset');

	// Callers of rev.
	await page.click('#tab-flat');
	await page.click('tr[data-name="Main.rev"] .link');
	check(/Callers of Main\.rev: 47 ticks in 6 calling contexts/.test(await page.textContent('#view-callers')),
	    `callers: ${await page.textContent('#view-callers .note')}`);
	check(!/largest self cost/.test(await page.textContent('#view-callers')), 'a name clicked, no link to the largest');

	// Callers that cannot be computed (here the first typed array they
	// ask for fails) leave the view of rev's callers, and say so.
	await page.evaluate(() => {
		const Real = Int32Array;
		let armed = true;
		globalThis.Int32Array = new Proxy(Real, {
			construct(target, args) {
				if (armed) {
					armed = false;
					throw new RangeError('forced for the test');
				}
				return new Real(...args);
			},
		});
		window.restoreInt32Array = () => { globalThis.Int32Array = Real; };
	});
	await page.click('#tab-flat');
	await page.click('tr[data-name="Main.j"] .link');
	const keptCallers = await page.textContent('#view-callers');
	check(/Callers of Main\.rev: 47 ticks/.test(keptCallers) &&
	    /could not be applied \(forced for the test\): the view is as it was/.test(await page.textContent('#status')),
	    `failed callers keep the view: ${keptCallers.slice(0, 60)} / ${await page.textContent('#status')}`);
	await page.evaluate(() => window.restoreInt32Array());
	await page.click('#tab-flat');
	await page.click('tr[data-name="Main.j"] .link');
	check(/Callers of Main\.j: 46 ticks/.test(await page.textContent('#view-callers')) &&
	    !/could not be applied/.test(await page.textContent('#status')),
	    'callers asked again once they can be computed');

	// Flame graph.
	await page.click('#tab-flame');
	check(await page.$eval('#view-flame canvas', (c) => c.height > 0 && c.width > 0), 'flame graph drawn');
	// From the keyboard: arrows move between frames, said below the
	// graph; Enter zooms in, Escape out; the graph keeps the focus.
	{
		await page.focus('#view-flame canvas');
		const said = () => page.textContent('#flame-focus');
		const frames = () => page.$eval('#view-flame canvas', (c) => Number(c.dataset.frames));
		const all = await frames();
		check(/^MAIN\.MAIN: 47 ticks/.test(await said()), `flame keys start at the root: ${await said()}`);
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('ArrowDown');
		check(/^Main\.h: 46 ticks/.test(await said()), `down twice, the widest child each time: ${await said()}`);
		await page.keyboard.press('ArrowLeft');
		check(/^Main\.a: 1 ticks/.test(await said()), `left, the sibling before: ${await said()}`);
		await page.keyboard.press('ArrowUp');
		await page.keyboard.press('Enter');
		check(/^Main\.CAF: 47 ticks/.test(await said()) && await frames() === all - 1,
		    `Enter zooms into CAF: ${await said()}, ${await frames()} of ${all} frames`);
		await page.keyboard.press('Escape');
		check(/^MAIN\.MAIN/.test(await said()) && await frames() === all &&
		    await page.evaluate(() => document.activeElement.tagName) === 'CANVAS',
		    `Escape zooms out, the graph keeps the focus: ${await said()}`);
	}

	// Another metric.
	check(await page.textContent('#min-unit') === 'ticks', 'the minimum is in ticks');
	await page.selectOption('#metric', { label: 'alloc (bytes)' });
	check(/bytes/.test(await page.textContent('#status')), 'metric chosen in the page');
	check(await page.textContent('#min-unit') === 'bytes',
	    `the minimum follows the metric: ${await page.textContent('#min-unit')}`);
	await page.click('#tab-tree');
	await page.click('#expand-hot');
	await page.screenshot({ path: `${scratch}/mj.png`, fullPage: true });
	check(page.dialogs.length === 0 && page.errors.length === 0, 'no dialogs, no errors');
	await page.close();
}

// ---- hostile names are text ----
{
	const names = ['<img src=x onerror=alert(1)>', '</script><script>alert(2)</script>',
	    '<!--', '"\'&amp;', '<svg onload=alert(3)>'];
	const folded = names.map((n, i) => `main;${n.replace(/;/g, '\\;')} ${i + 1}\n`).join('') +
	    'main;f\\;g 5\n';
	writeFileSync(`${scratch}/hostile.folded`, folded);
	const page = await open(html(`${scratch}/hostile.folded`, `${scratch}/hostile.html`));
	await page.click('#tab-flat');
	const shown = await page.$$eval('tbody tr', (r) => r.map((e) => e.dataset.name));
	for (const n of names)
		check(shown.includes(n), `name shown as text: ${n}`);
	check(shown.includes('f;g'), 'escaped ; in folded input');
	check(await page.$$eval('img, svg', (x) => x.length) === 0, 'no element made from a name');
	await page.click('#tab-tree');
	await page.click('#expand-hot');
	await page.click('#tab-flame');
	check(page.dialogs.length === 0, `no script ran (dialogs: ${page.dialogs.join(', ')})`);
	check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
	await page.close();
}

// ---- every hostile name of issue 5, bytes and all ----
{
	// [bytes of the name, what the viewer shows]
	const bad = Buffer.from([0x62, 0x61, 0x64, 0xff, 0xfe]);
	const long = 'L'.repeat(100000);
	const cases = [
		['q"uote\'d', 'q"uote\'d'], ['back\\slash\\', 'back\\slash\\'],
		['new\nline', 'new\nline'], ['tab\there', 'tab\there'],
		['semi;colon', 'semi;colon'], ['<script>alert(4)</script>', '<script>alert(4)</script>'],
		[']]>', ']]>'], ['-->', '-->'], ['cr\rret', 'cr\rret'],
		['\u001b[31mred', '\u001b[31mred'], [long, long], [bad, 'bad\ufffd\ufffd'],
	];
	const esc = (b) => Buffer.from(b.toString('latin1').replace(/\\/g, '\\\\')
	    .replace(/;/g, '\\;').replace(/\n/g, '\\n').replace(/\r/g, '\\r'), 'latin1');
	const lines = cases.map(([n], i) => Buffer.concat([Buffer.from('main;'),
	    esc(Buffer.isBuffer(n) ? n : Buffer.from(n, 'utf8')), Buffer.from(` ${i + 1}\n`)]));
	writeFileSync(`${scratch}/hostile2.folded`, Buffer.concat(lines));
	const page = await open(html(`${scratch}/hostile2.folded`, `${scratch}/hostile2.html`));
	await page.click('#tab-flat');
	const shown = await page.$$eval('tbody tr', (r) => r.map((e) => e.dataset.name));
	for (const [, want] of cases)
		check(shown.includes(want), `name shown as text: ${JSON.stringify(want.slice(0, 40))}`);
	check(await page.$$eval('img, svg, script:not([id]):not([type])', (x) => x.length) <= 1,
	    'no element made from a name');
	await page.click('#tab-tree');
	await page.click('#expand-hot');
	await page.click('#tab-flame');
	check(page.dialogs.length === 0, `no script ran (dialogs: ${page.dialogs.join(', ')})`);
	check(page.errors.length === 0, `no script errors ${page.errors.join('; ')}`);
	await page.close();
}

// ---- what a review found: deep stacks, wide trees, globs, counts ----
{
	// A stack 3000 levels deep: the hot arm expands without recursion,
	// in rows, not 3000 nested elements.
	const deep = Array.from({ length: 3000 }, (_, i) => `f${i}`).join(';') + ' 10\n';
	writeFileSync(`${scratch}/deep.folded`, deep);
	const page = await open(html(`${scratch}/deep.folded`, `${scratch}/deep.html`));
	await page.click('#expand-hot');
	check(await page.$$eval('.tree .row:not(.head)', (r) => r.length) === 3001,
	    'a 3000-level hot arm is expanded');
	check(await page.$eval('.row.hot .label', (e) => e.textContent).catch(() => null) ===
	    'f2999', 'the deepest frame is shown');
	check(page.errors.length === 0, `deep stack: no script errors ${page.errors.join('; ')}`);
	await page.close();
}
{
	// Search finds a stack past the 200 children shown.
	let wide = '';
	for (let i = 0; i < 500; i++)
		wide += `main;f${String(i).padStart(3, '0')} ${1000 - i}\n`;
	wide += 'main;zzz_needle 1\n';
	writeFileSync(`${scratch}/wide.folded`, wide);
	const page = await open(html(`${scratch}/wide.folded`, `${scratch}/wide.html`));
	await page.fill('#search', 'needle');
	await page.click('#find');
	check(await page.$eval('.row.hit .label', (e) => e.textContent).catch(() => null) ===
	    'zzz_needle', 'search shows a stack past the first 200 children');
	await page.close();
}
{
	// Globs as fnmatch(3): classes, escaped blanks; a bad range matches
	// nothing and leaves the page working.
	writeFileSync(`${scratch}/globs.folded`,
	    'main;alpha 1\nmain;9lives 2\nmain;two words 4\nmain;rec;rec;rec 8\n');
	const page = await open(html(`${scratch}/globs.folded`, `${scratch}/globs.html`));
	await page.click('#tab-flat');
	await page.fill('#deselect', '[[:alpha:]]* two\\ words');
	await page.click('#apply');
	const left = await page.$$eval('tbody tr:not(.off)', (r) => r.map((e) => e.dataset.name));
	check(left.includes('9lives') && !left.includes('alpha') && !left.includes('two words'),
	    `[[:alpha:]] and an escaped blank: ${left.join(',')}`);
	await page.fill('#deselect', '[z-a]*');
	await page.click('#apply');
	check(page.errors.length === 0, `a bad range is no error ${page.errors.join('; ')}`);
	check(await page.$$eval('tbody tr.off', (r) => r.length) === 0, 'a bad range matches nothing');
	await page.selectOption('#metric', { index: 0 });
	check(page.errors.length === 0, 'the page still works');
	await page.close();
}
{
	// Callers of a recursive cost centre count every entry of it.
	const prof = execFileSync(`${bindir}/ccs-convert`, ['-t', 'json', 'tests/data/ghc/mj.P.prof']);
	const d = JSON.parse(prof);
	const cc = d.cost_centres.length;
	d.cost_centres.push({ label: 'recf', module: 0, src: '', caf: false, synthetic: false, id: -1 });
	const e = d.metrics.findIndex((m) => m.name === 'entries');
	const node = (kids) => { const v = d.metrics.map(() => 0); v[e] = 1; v[0] = 1; return [cc, kids, ...v]; };
	// The root gets one child more: f, f, f nested.
	d.nodes[0][1]++;
	d.nodes.splice(1, 0, node(1), node(1), node(0));
	writeFileSync(`${scratch}/rec.json`, JSON.stringify(d));
	const cli = execFileSync(`${bindir}/ccs-callers`, ['-m', 'entries', '--tsv', 'recf', `${scratch}/rec.json`]).toString();
	const page = await open(html(`${scratch}/rec.json`, `${scratch}/rec.html`));
	await page.selectOption('#metric', { label: 'entries (calls)' });
	await page.click('#tab-flat');
	await page.click('tr[data-name="MAIN.recf"] .link');
	const note = await page.textContent('#view-callers .note').catch(() => '');
	check(/: 3 calls in 1 calling context\./.test(note), `callers of recf count its 3 entries, in one context: ${note} (ccs-callers: ${cli.trim().split('\n').pop()})`);
	await page.close();
}
{
	// Negative costs: children stay inside their parent.
	writeFileSync(`${scratch}/neg.folded`, 'a;b -5\na;c 3\na;c;e -7\nd 2\na;c;f 4\n');
	const page = await open(html(`${scratch}/neg.folded`, `${scratch}/neg.html`));
	await page.click('#tab-flame');
	const [frames, extent] = await page.$eval('#view-flame canvas',
	    (c) => [Number(c.dataset.frames), Number(c.dataset.extent)]).catch(() => [0, 0]);
	check(page.errors.length === 0, 'negative costs: no errors');
	// root, a, c, f, d: the positive costs, each inside its parent.
	check(frames === 5 && extent <= 1.0001, `negative costs: ${frames} frames, to ${extent} of the width`);
	await page.close();
}
{
	// A name not UTF-8 keeps its good characters.
	writeFileSync(`${scratch}/utf.folded`, Buffer.concat([Buffer.from('main;caf\xc3\xa9', 'latin1'),
	    Buffer.from([0xff]), Buffer.from(' 1\n')]));
	const page = await open(html(`${scratch}/utf.folded`, `${scratch}/utf.html`));
	await page.click('#tab-flat');
	const shown = await page.$$eval('tbody tr', (r) => r.map((e) => e.dataset.name));
	check(shown.includes('caf\u00e9\ufffd'), `only the bad byte is replaced: ${shown.join(',')}`);
	await page.close();
}

// ---- what a review of the viewer in use found ----
{
	// A cost centre with an empty label (GHC's SCC "") has something
	// to see and to click: here it is 99.8% of the profile.
	const page = await open(html('tests/data/ghc/quirks-N2.prof', `${scratch}/quirks.html`, '-q'));
	await page.click('#tab-flat');
	const width = await page.$eval('tr[data-name="Main."] .link', (e) => e.getBoundingClientRect().width);
	check(width > 0, `an empty label can be clicked (${width} px wide)`);
	if (width > 0)
		await page.click('tr[data-name="Main."] .link');
	check(/Callers of Main\.: 418 ticks/.test(await page.textContent('#view-callers')),
	    'callers of the cost centre with an empty label');
	// The flame graph draws its frame with a stand-in name, where
	// the canvas would show an empty box.
	await page.evaluate(() => {
		window.drawnText = [];
		const fill = CanvasRenderingContext2D.prototype.fillText;
		CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
			window.drawnText.push(String(text));
			return fill.call(this, text, ...rest);
		};
	});
	await page.click('#tab-flame');
	const drawnText = await page.evaluate(() => window.drawnText);
	check(drawnText.includes('(empty label)') && drawnText.includes('MAIN'),
	    `the flame graph names the empty label: ${drawnText.slice(0, 8).join(', ')}`);
	await page.click('#tab-flat');
	// Written without -P, its ticks come from rounded percentages, as
	// ccs-flat notes.
	check(/approximate: from rounded percentages/.test(await page.textContent('#status')),
	    `an approximate metric is noted: ${await page.textContent('#status')}`);
	await page.close();
}
{
	const page = await open(html('tests/data/ghc/mj.P.prof', `${scratch}/mjP.html`, '-q'));
	check(!/approximate/.test(await page.textContent('#status')),
	    `-P ticks are exact: ${await page.textContent('#status')}`);
	await page.close();
}
{
	// -m chooses the metric the page opens on.
	const page = await open(html('tests/data/ghc/mj.P.prof', `${scratch}/mj-alloc.html`, '-q', '-m', 'alloc'));
	check(await page.$eval('#metric', (e) => e.selectedOptions[0].textContent) === 'alloc (bytes)',
	    `-m alloc opens on alloc: ${await page.$eval('#metric', (e) => e.selectedOptions[0].textContent)}`);
	check(/total 210,573,856 bytes/.test(await page.textContent('#status')),
	    `the status is in bytes: ${await page.textContent('#status')}`);
	await page.close();
}
{
	// Ticks less the profiling overhead (--compensate) are noted, as
	// ccs-flat notes them; words are not compensated.
	const pgcl = 'tests/data/pgcl/synthetic-400.pgcl';
	let page = await open(html(pgcl, `${scratch}/comp.html`, '-q', '--compensate'));
	check(/compensated for profiling overhead/.test(await page.textContent('#status')),
	    `compensated ticks are noted: ${await page.textContent('#status')}`);
	await page.close();
	page = await open(html(pgcl, `${scratch}/comp-words.html`, '-q', '--compensate', '-m', 'words'));
	check(!/compensated/.test(await page.textContent('#status')),
	    `words are not compensated: ${await page.textContent('#status')}`);
	await page.close();
	page = await open(html(pgcl, `${scratch}/raw.html`, '-q'));
	check(!/compensated/.test(await page.textContent('#status')),
	    `raw ticks are not noted: ${await page.textContent('#status')}`);
	await page.close();
}
{
	// Folded stacks (Fig. 7 of the paper): the reader's synthetic root is no caller (as in
	// ccs-callers), and the flat table shows it when cost is left on
	// it (as ccs-flat does), so that the self column adds up.
	const input = `${scratch}/fig7.folded`;
	writeFileSync(input, 'Main_main;Main_a;Main_c;Main_f;Main_h;Main_j;Main_rev 1181\n' +
	    'Main_main;Main_a;Main_b;Main_e;Main_g;Main_j;Main_rev 16\nMain_main;Main_a;Main_b;Main_e;Main_g;Main_rev 10\n' +
	    'Main_main;Main_a;Main_c;Main_f;Main_i;Main_rev 7\nMain_main;Main_a;Main_b;Main_d;Main_g;Main_rev 11\n' +
	    'Main_main;Main_a;Main_b;Main_d;Main_g;Main_j;Main_rev 12\n');
	const page = await open(html(input, `${scratch}/fig7.html`));
	await page.click('#tab-flat');
	await page.click('tr[data-name="Main_rev"] .link');
	await page.evaluate(() => {
		for (;;) {
			const t = [...document.querySelectorAll('#view-callers .toggle')].find((x) => x.textContent === '\u25b8');
			if (!t)
				break;
			t.click();
		}
	});
	const labels = await page.$$eval('#view-callers .row:not(.head) .label', (l) => l.map((e) => e.textContent));
	const cli = execFileSync(`${bindir}/ccs-callers`, ['--tsv', 'Main_rev', input]).toString().trim().split('\n').slice(1);
	check(!labels.includes('(root)') && labels.length === cli.length,
	    `callers: no synthetic root, ${labels.length} rows as ccs-callers' ${cli.length}`);
	await page.fill('#select', 'Main_h');
	await page.click('#apply');
	await page.click('#tab-flat');
	const on = await page.$$eval('tbody tr:not(.off)', (r) => r.map((e) => [e.dataset.name, Number(e.querySelector('td.self').dataset.v)]));
	const flat = execFileSync(`${bindir}/ccs-flat`, ['--tsv', '-s', 'Main_h', input]).toString();
	check(JSON.stringify(on) === '[["Main_h",1181],["(root)",56]]' && /\t\(root\)\t\t56\t1237/.test(flat),
	    `select Main_h: the root keeps the other 56 samples: ${JSON.stringify(on)}`);
	await page.close();
}
{
	// Percentages round as the tools round them: 1 of 400 is 0.25%,
	// which ccs-flat prints as 0.2 (ties to even).
	writeFileSync(`${scratch}/tie.folded`, 'a 1\nb 396\nc 3\n');
	const page = await open(html(`${scratch}/tie.folded`, `${scratch}/tie.html`));
	await page.click('#tab-flat');
	const shown = await page.$$eval('tbody tr', (r) => r.map((e) => e.dataset.name + ' ' +
	    e.querySelector('td.selfpct').textContent).sort());
	const cli = execFileSync(`${bindir}/ccs-flat`, [`${scratch}/tie.folded`]).toString()
	    .split('\n').filter((l) => /^[abc] /.test(l)).map((l) => l.split(/ +/)).map((f) => f[0] + ' ' + f[2]).sort();
	check(shown.join(',') === cli.join(','), `percentages as ccs-flat prints them: ${shown.join(',')} / ${cli.join(',')}`);
	await page.close();
}
{
	// The keyboard: Tab reaches the tree's toggles, the column heads
	// and the callers links; Enter works them; the focus stays put.
	const page = await open(html('tests/data/ghc/mj.P.prof', `${scratch}/kbd.html`));
	await page.focus('#tab-callers');
	await page.keyboard.press('Tab');
	await page.keyboard.press('Tab');
	const focused = await page.evaluate(() => document.activeElement.closest('.row')?.dataset.node);
	await page.keyboard.press('Enter');
	check(focused === '1' && await page.$$eval('#view-tree .row:not(.head)', (r) => r.length) > 8,
	    `Tab and Enter expand a tree node (focused node ${focused})`);
	check(await page.evaluate(() => document.activeElement.closest('.row')?.dataset.node) === '1',
	    'the focus stays on the toggle');
	await page.click('#tab-flat');
	await page.focus('tr[data-name="Main.rev"] input');
	await page.keyboard.press('Space');
	check(await page.evaluate(() => document.activeElement.closest('tr')?.dataset.name) === 'Main.rev',
	    'the focus stays on a checkbox toggled with Space');
	await page.focus('th[data-col="name"]');
	await page.keyboard.press('Enter');
	check(await page.$eval('th.sorted', (e) => e.dataset.col) === 'name', 'Enter on a column head sorts');
	await page.focus('tr[data-name="Main.j"] .link');
	await page.keyboard.press('Enter');
	check(/Callers of Main\.j/.test(await page.textContent('#view-callers')), 'Enter on a name shows its callers');
	await page.close();
}
{
	// The flame graph follows the window's width, and keeps its
	// tooltip inside the window.
	const page = await open(html('tests/data/ghc/clausify.prof', `${scratch}/clausify.html`));
	await page.click('#tab-flame');
	await page.setViewportSize({ width: 480, height: 700 });
	await page.waitForTimeout(200);
	const [w, cw] = await page.$eval('#view-flame canvas', (c) => [c.width, c.clientWidth]);
	check(Math.abs(w - cw) <= 1, `after a resize the flame graph is drawn ${w} wide for ${cw} px`);
	await page.setViewportSize({ width: 1280, height: 700 });
	await page.waitForTimeout(200);
	const b = await page.$eval('#view-flame canvas', (c) => { const r = c.getBoundingClientRect(); return [r.right, r.top]; });
	await page.mouse.move(b[0] - 3, b[1] + 9);
	const right = await page.$eval('.tip', (t) => t.getBoundingClientRect().right);
	check(right <= 1280, `the tooltip stays in the window (right edge ${right})`);
	await page.close();
}
// The flame graph's level (0 the root) at x device px of the canvas: where
// its middle is in the window, and the canvas's pixel there (0s where
// the canvas does not reach).
function flamePixel(page, level, x) {
	return page.$eval('#view-flame canvas', (c, [level, x]) => {
		const b = c.parentElement.getBoundingClientRect(), r = c.getBoundingClientRect();
		const y = b.top + c.clientTop + level * 18 + 9;
		const cy = Math.floor((y - r.top - c.clientTop) * devicePixelRatio);
		const px = cy >= 0 && cy < c.height ? [...c.getContext('2d').getImageData(x, cy, 1, 1).data] : [0, 0, 0, 0];
		return { y, px };
	}, [level, x]);
}
// Two frames on: what a scroll repaints is painted.
const frames2 = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
{
	// A stack 4000 levels deep: 72,000 px of graph, more than a
	// browser draws on one canvas.  The canvas is as tall as the
	// window, over the part of the graph in view, and only the levels
	// there are painted; every level is laid out, and a frame far down,
	// scrolled to, is painted and answers the pointer; a search scrolls
	// to the deepest frame and paints it; at 2 device pixels a px too.
	writeFileSync(`${scratch}/deep4k.folded`, Array.from({ length: 4000 }, (_, i) => `f${i}`).join(';') + ' 10\n');
	html(`${scratch}/deep4k.folded`, `${scratch}/deep4k.html`);
	for (const dpr of [1, 2]) {
		const page = await open(`${scratch}/deep4k.html`, 10000, dpr);
		await page.click('#tab-flame');
		const alpha = await page.$eval('#view-flame canvas', (c) => c.getContext('2d').getImageData(20, 5, 1, 1).data[3]);
		check(alpha === 255, `a 4000-level flame graph is drawn (alpha ${alpha}, ${dpr} dppx)`);
		if (dpr === 1) {
			const hot = await page.$eval('.hotline', (e) => e.getBoundingClientRect().height);
			check(hot < 200, `a 4000-level hot stack leaves room for the views (${hot} px)`);
		}
		const [frames, height, painted, note] = await page.$eval('#view-flame canvas', (c) => [Number(c.dataset.frames),
		    c.height, Number(c.dataset.painted), document.querySelector('#view-flame .note').textContent]);
		check(frames === 4001 && height <= 900 * dpr && painted > 0 && painted <= 60 && !/not drawn/.test(note),
		    `a 4000-level flame graph: all ${frames} frames laid out, a canvas ${height} device px tall, ${painted} painted (${dpr} dppx)`);
		await page.fill('#search', 'f3999');
		await page.press('#search', 'Enter');
		await frames2(page);
		const last = await flamePixel(page, 4000, 40 * dpr);
		const said = await page.textContent('#flame-focus');
		check(/^f3999:/.test(said) && last.y >= 0 && last.y + 9 <= 900 && last.px[3] === 255,
		    `a search goes to the deepest frame, scrolled to (at ${last.y} px) and painted (${last.px}): ${said.slice(0, 20)} (${dpr} dppx)`);
		await page.fill('#search', '');
		await page.press('#search', 'Enter');
		// Level 3000 (f2999) scrolled to 400 px down the window.
		const top = await flamePixel(page, 3000, 40 * dpr);
		await page.evaluate((y) => window.scrollBy(0, y - 409), top.y);
		await frames2(page);
		const deep = await flamePixel(page, 3000, 40 * dpr);
		await page.mouse.move(200, deep.y);
		const tip = await page.$eval('.tip', (t) => getComputedStyle(t).display === 'block' ? t.textContent : '');
		check(Math.abs(deep.y - 409) < 1 && deep.px[3] === 255 && /^f2999:/.test(tip),
		    `level 3000, scrolled to (at ${deep.y} px), is painted (${deep.px}) and under the pointer: ${tip.slice(0, 20)} (${dpr} dppx)`);
		// A shorter window: a shorter canvas, the graph painted still.
		await page.setViewportSize({ width: 1280, height: 500 });
		await page.waitForTimeout(200);
		await frames2(page);
		const short = await page.$eval('#view-flame canvas', (c) => c.height);
		const seen = await flamePixel(page, 3000, 40 * dpr);
		check(short <= 500 * dpr && seen.y >= 0 && seen.y + 9 <= 500 && seen.px[3] === 255,
		    `a window 500 px tall: a canvas ${short} device px tall, level 3000 at ${seen.y} px painted ${seen.px} (${dpr} dppx)`);
		await page.mouse.click(200, seen.y);
		const [zf, zsaid] = [await page.$eval('#view-flame canvas', (c) => Number(c.dataset.frames)),
		    await page.textContent('#flame-focus')];
		check(zf === 1001 && /^f2999:/.test(zsaid), `a click there zooms into it: ${zf} frames, ${zsaid.slice(0, 20)} (${dpr} dppx)`);
		check(page.errors.length === 0, `deep flame graph: no script errors ${page.errors.join('; ')} (${dpr} dppx)`);
		await page.close();
	}
}

// ---- -fprof-auto-calls: names that collide are told apart by source ----
{
	const page = await open(html('tests/data/ghc/calls.P.prof', `${scratch}/calls.html`));
	await page.click('#tab-flat');
	const heads = await page.$$eval('table.flat th', (h) => h.map((e) => e.textContent));
	check(heads.includes('src'), `the flat table has a src column: ${heads.join(',')}`);
	const srcs = await page.$$eval('tr[data-name="Main.insert"]', (rows) => rows.map((r) => r.children[3].textContent));
	check(srcs.length === 6 && new Set(srcs).size === 6 && srcs.every((x) => /^Main\.hs:/.test(x)),
	    `six insert rows, six sources: ${srcs.join(' ')}`);
	await page.click('#tab-tree');
	await page.click('#expand-hot');
	const titles = await page.$$eval('.row.arm .name', (n) => n.map((e) => e.title));
	check(titles.some((x) => /^Main\.insert \(Main\.hs:\d+:/.test(x)),
	    `a tree row's name gives the source: ${titles.join(' | ')}`);
	check(titles.some((x) => x === 'MAIN.MAIN'), 'a name that does not collide has none');
	check(page.errors.length === 0, `calls: no script errors ${page.errors.join('; ')}`);
	await page.close();
	const mj = await open(`${scratch}/mj.html`);
	await mj.click('#tab-flat');
	const mjHeads = await mj.$$eval('table.flat th', (h) => h.map((e) => e.textContent));
	check(!mjHeads.includes('src'), 'no src column where no names collide');
	await mj.close();
}

// ---- a page of several chunks, and one cut to --max-stacks ----
{
	const dump = `${scratch}/chunks.dump`;
	execFileSync(`${bindir}/ccs-gen`, ['-q', '-t', 'dump', '--size', '6M', '--seed', '3', '-o', dump]);
	const stacks = Number(execSync(`'${bindir}/ccs-stacks' --all '${dump}' | wc -l`));
	const ticks = Number(execSync(`'${bindir}/ccs-flat' '${dump}' | sed -n 's/^metric: *ticks (ticks), total //p'`));
	const status = async (page) => {
		const t = await page.textContent('#status');
		const m = /^(\d+) stacks \u00b7 total ([\d,]+) ticks/.exec(t);
		return [m ? Number(m[1]) : -1, m ? Number(m[2].replace(/,/g, '')) : -1, t];
	};
	let page = await open(html(dump, `${scratch}/chunks.html`), 60000);
	check(await page.$$eval('script.profile-chunk', (e) => e.length) === 0,
	    'the chunks are read and dropped from the page');
	let [n, tot, text] = await status(page);
	check(stacks > 2 * 262144 && n === stacks && tot === ticks,
	    `every chunk is read: ${n} of ${stacks} stacks, ${tot} of ${ticks} ticks (${text})`);
	check(!/--max-stacks/.test(text), 'no note when nothing was cut');
	check(page.errors.length === 0, `chunks: no script errors ${page.errors.join('; ')}`);
	await page.close();
	page = await open(html(dump, `${scratch}/cut.html`, '--max-stacks', '1000'));
	[n, tot, text] = await status(page);
	check(n > 0 && n <= 1000 && tot === ticks, `--max-stacks 1000: ${n} stacks, the same ${tot} ticks`);
	check(text.includes(`${n} of ${stacks} stacks kept; those whose inclusive ticks are below `),
	    `the status line says what was cut: ${text}`);
	await page.close();
}

{
	// Find next on the flat table goes to the next matching row, drawn
	// if it was past the first 300 and scrolled to.
	const prof = `${scratch}/m9.json`;
	execFileSync(`${bindir}/ccs-gen`, ['-q', '-t', 'ghc-json', '-n', '20000', '--seed', '9', '-o', prof]);
	const page = await open(html(prof, `${scratch}/m9.html`));
	await page.click('#tab-flat');
	check(await page.$('#view-flat tr[data-name="Vector.unifyMap1"]') === null,
	    'the row is past those drawn at first');
	await page.fill('#search', 'vector.unifymap1');
	await page.press('#search', 'Enter');
	const row = await page.$('#view-flat tr.current');
	const name = row ? await row.getAttribute('data-name') : null;
	const place = row ? await row.evaluate((r) => [...r.parentNode.children].indexOf(r)) : -1;
	const seen = row ? await row.evaluate((r) => {
		const b = r.getBoundingClientRect();
		return b.top >= 0 && b.bottom <= window.innerHeight;
	}) : false;
	// Drawn in a window of 300 rows around it, not every row down to it.
	const win = /^rows (\d+) to \d+ of \d+/.exec(await page.textContent('#view-flat .more'));
	const drawn = await page.$$eval('#view-flat tbody tr', (r) => r.length);
	const at = win ? Number(win[1]) - 1 + place : place;
	check(name === 'Vector.unifyMap1' && at >= 300 && drawn <= 300 && seen,
	    `find next on the flat table: ${name}, row ${at} (${drawn} drawn), in view ${seen}`);
	check(await page.$eval('#tab-flat', (b) => b.classList.contains('active')), 'the flat table stays shown');
	check(page.errors.length === 0, `flat find: no script errors ${page.errors.join('; ')}`);
	await page.close();
}
{
	// A profile that names no program is named after its file.
	const page = await open(html('tests/data/pgcl/synthetic-400.pgcl', `${scratch}/syn.html`));
	const h1 = await page.textContent('h1');
	check(h1.startsWith('synthetic-400.pgcl \u2014'), `heading: ${h1}`);
	await page.close();
}
{
	// Globs match names as the tools' fnmatch(3) does, a byte at a
	// time: '?' is one byte of a UTF-8 name, not one character.
	const prof = `${scratch}/glob.folded`;
	writeFileSync(prof, 'main;caf\u00e9 1\nmain;\u03a9mega 128\nmain;plain 2\n');
	const page = await open(html(prof, `${scratch}/glob.html`));
	for (const pat of ['caf?', 'caf??', '?mega', '??mega', 'caf[\u00e9]', 'caf[\u00e9][\u00e9]']) {
		const cli = spawnSync(`${bindir}/ccs-flat`, ['--tsv', '-d', pat, prof]).stdout.toString()
		    .split('\n').slice(1).map((l) => l.split('\t')[1]).filter((x) => x);
		await page.click('#reset');
		await page.fill('#deselect', pat);
		await page.click('#apply');
		await page.click('#tab-flat');
		const on = await page.$$eval('#view-flat tbody tr:not(.off)', (r) => r.map((e) => e.dataset.name));
		const same = ['caf\u00e9', '\u03a9mega'].every((n) => on.includes(n) === cli.includes(n));
		check(same, `glob ${pat}: page keeps ${on.join(' ')}, ccs-flat ${cli.join(' ')}`);
	}
	await page.close();
	// A name that is not UTF-8 (Latin-1 caf\xe9) is matched by its bytes.
	const lat = `${scratch}/latin1.folded`;
	writeFileSync(lat, Buffer.from('main;caf\xe9 1\nmain;plain 2\n', 'latin1'));
	const lpage = await open(html(lat, `${scratch}/latin1.html`));
	for (const pat of ['caf?', 'caf???']) {
		const cli = spawnSync(`${bindir}/ccs-flat`, ['--tsv', '-d', pat, lat]).stdout.toString()
		    .split('\n').slice(1).map((l) => l.split('\t')[1]).filter((x) => x);
		await lpage.click('#reset');
		await lpage.fill('#deselect', pat);
		await lpage.click('#apply');
		await lpage.click('#tab-flat');
		const on = await lpage.$$eval('#view-flat tbody tr:not(.off)', (r) => r.map((e) => e.dataset.name));
		check(on.includes('caf\ufffd') === cli.includes('caf\ufffd'),
		    `glob ${pat} on a Latin-1 name: page keeps ${on.join(' ')}, ccs-flat ${cli.join(' ')}`);
	}
	await lpage.close();
}
{
	// A search for a de-selected cost centre says why no stack matches.
	const page = await open(html('tests/data/ghc/mj.P.prof', `${scratch}/mj-find.html`));
	await page.fill('#deselect', 'rev');
	await page.click('#apply');
	await page.fill('#search', 'rev');
	await page.press('#search', 'Enter');
	const st = await page.textContent('#status');
	check(/nothing in this view matches \u201crev\u201d: the cost centres that do are de-selected or pruned/.test(st),
	    `search for a de-selected cost centre: ${st}`);
	await page.fill('#search', 'nosuchname');
	await page.press('#search', 'Enter');
	check(/^no cost centre matches/.test(await page.textContent('#status')), 'a name in no cost centre');
	await page.close();
}

// ---- what a tester found ----
{
	// A new query searches from the top, not on from the last hit.
	const page = await open(`${scratch}/mj.html`);
	await page.fill('#search', 'rev');
	await page.press('#search', 'Enter');
	const first = await page.$eval('.row.hit', (r) => r.dataset.node).catch(() => null);
	await page.fill('#search', 'CAF');
	await page.press('#search', 'Enter');
	const hit = await page.$eval('.row.hit', (r) => r.dataset.node + ' ' +
	    r.querySelector('.name').title).catch(() => null);
	check(first === '6' && hit === '1 Main.CAF', `a new search starts at the top: rev at ${first}, then CAF at ${hit}`);
	await page.close();
}
{
	// A row de-selected with its checkbox stays, to be checked again,
	// with the focus on its checkbox: here it is the first of 502.
	const page = await open(`${scratch}/wide.html`);
	await page.click('#tab-flat');
	await page.focus('tr[data-name="f000"] input');
	await page.keyboard.press('Space');
	const row = await page.$('tr[data-name="f000"]');
	const off = row ? await row.evaluate((r) => r.classList.contains('off')) : false;
	const focused = await page.evaluate(() => document.activeElement.closest('tr')?.dataset.name);
	check(off && focused === 'f000', `a de-selected row stays, focused: drawn ${!!row}, off ${off}, focus on ${focused}`);
	if (focused === 'f000')
		await page.keyboard.press('Space');
	check(await page.$eval('tr[data-name="f000"]', (r) => !r.classList.contains('off')).catch(() => false) &&
	    await page.evaluate(() => document.activeElement.closest('tr')?.dataset.name) === 'f000',
	    'and is checked again from the keyboard');
	await page.close();
}
{
	// The callers are made again only when they are shown: changing
	// the metric with them open makes no more of the 64-node trees
	// callers() starts with than it makes with them never opened.
	const page = await open(`${scratch}/mj.html`);
	await page.evaluate(() => {
		const Real = Int32Array;
		window.small = 0;
		globalThis.Int32Array = new Proxy(Real, {
			construct(target, args) {
				if (args[0] === 64)
					window.small++;
				return new Real(...args);
			},
		});
	});
	const count = async (f) => {
		await page.evaluate(() => { window.small = 0; });
		await f();
		return page.evaluate(() => window.small);
	};
	const metric = () => count(async () => {
		await page.selectOption('#metric', { label: 'alloc (bytes)' });
		await page.selectOption('#metric', { label: 'ticks (ticks)' });
	});
	const before = await metric();
	await page.click('#tab-flat');
	await page.click('tr[data-name="Main.rev"] .link');
	await page.click('#tab-flat');
	const after = await metric();
	const shown = await count(() => page.click('#tab-callers'));
	check(after === before && shown > 0 && /Callers of Main\.rev: 47 ticks/.test(await page.textContent('#view-callers')),
	    `callers made when shown, not on every change: ${before}, ${after} with them open, ${shown} when shown`);
	await page.fill('#deselect', 'j');
	await page.click('#apply');
	check(/Callers of Main\.rev: 47 ticks in 4 calling contexts/.test(await page.textContent('#view-callers')),
	    `callers made again for a new view: ${await page.textContent('#view-callers .note')}`);
	await page.close();
}
{
	// Names thousands of levels down show: the indentation stops and
	// the depth is written.
	const page = await open(`${scratch}/deep.html`);
	await page.click('#expand-hot');
	const [left, right, depth] = await page.$eval('.row.hot', (r) => {
		const l = r.querySelector('.label').getBoundingClientRect();
		const n = r.querySelector('.name').getBoundingClientRect();
		return [l.left, n.right, r.querySelector('.depth')?.textContent];
	}).catch(() => [0, 0, null]);
	check(left > 0 && left + 20 < right && /3000/.test(depth || ''),
	    `the deepest name shows: at ${left} of ${right} px, depth ${depth}`);
	await page.close();
}
{
	// The flame graph's tooltip stays in the window at its bottom
	// edge; a click that zooms leaves no tooltip of the old frame;
	// a frame reached with the keys is scrolled to.
	// 200 levels: 3600 px of graph, cheap to draw again at each key.
	writeFileSync(`${scratch}/deep200.folded`, Array.from({ length: 200 }, (_, i) => `f${i}`).join(';') + ' 10\n');
	html(`${scratch}/deep200.folded`, `${scratch}/deep200.html`);
	let page = await open(`${scratch}/deep200.html`);
	await page.click('#tab-flame');
	await page.mouse.move(200, 890);
	const tip = () => page.$eval('.tip', (t) => [getComputedStyle(t).display, t.textContent,
	    t.getBoundingClientRect().bottom]);
	const [shown, text, bottom] = await tip();
	check(shown === 'block' && bottom <= 900, `the tooltip stays above the window's bottom (${shown}, bottom ${bottom})`);
	await page.mouse.click(200, 890);
	const [shown2, text2] = await tip();
	check(shown2 === 'none' || text2 !== text, `after a zoom the tooltip is not the old frame's (${shown2}: ${text2.slice(0, 30)})`);
	await page.close();
	page = await open(`${scratch}/deep200.html`);
	await page.click('#tab-flame');
	await page.focus('#view-flame canvas');
	for (let i = 0; i < 80; i++)
		await page.keyboard.press('ArrowDown');
	const said = await page.textContent('#flame-focus');
	// The graph's level 80, where it is in the window, painted.
	const { y, px } = await flamePixel(page, 80, 40);
	check(/^f79:/.test(said) && y - 9 >= 0 && y + 9 <= 900 && px[3] === 255,
	    `a frame reached with the keys is in the window: ${said.slice(0, 12)} at ${y - 9}, painted ${px}`);
	await page.close();
}
{
	// The callers' columns say what they are: one inclusive cost, a
	// share of the callee's, no self cost (MAIN's own is 0).
	const page = await open(`${scratch}/mj.html`);
	await page.click('#tab-flat');
	await page.click('tr[data-name="Main.rev"] .link');
	const heads = await page.$$eval('#view-callers .row.head span', (h) => h.map((e) => e.textContent));
	const selfs = await page.$$eval('#view-callers .row .self', (x) => x.length);
	check(!heads.includes('self') && heads.includes('inclusive') && heads.includes('% of callee') && selfs === 0,
	    `callers' columns: ${heads.join(' | ')} (${selfs} self cells)`);
	await page.close();
}
{
	// A profile of no cost says so on the flame graph.
	writeFileSync(`${scratch}/zero.folded`, 'a;b 0\na 0\n');
	const page = await open(html(`${scratch}/zero.folded`, `${scratch}/zero.html`));
	await page.click('#tab-flame');
	const said = await page.textContent('#view-flame');
	check(/Nothing to draw/.test(said), `an all-zero flame graph says so: ${said}`);
	check(page.errors.length === 0, `all-zero: no script errors ${page.errors.join('; ')}`);
	await page.close();
}
{
	// Patterns that match no cost centre are named, as the tools warn.
	const page = await open(`${scratch}/mj.html`);
	await page.fill('#deselect', 'Rev rev');
	await page.fill('#exclude', 'nosuch*');
	await page.click('#apply');
	const st = await page.textContent('#status');
	check(/no cost centre matches de-select \u201cRev\u201d, exclude \u201cnosuch\*\u201d/.test(st) && !/\u201crev\u201d/.test(st),
	    `unmatched patterns named: ${st}`);
	check(/ 1 cost centre de-selected/.test(st), `one cost centre said as one: ${st}`);
	await page.click('#reset');
	check(!/no cost centre matches/.test(await page.textContent('#status')), 'and no more once they are gone');
	await page.close();
}

// ---- the flame graph's keys, dark mode, search on the graph, narrow windows ----
// WCAG's relative luminance and contrast ratio of [r, g, b] (0-255).
function luminance([r, g, b]) {
	const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
	return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}
function contrast(x, y) {
	const a = luminance(x), b = luminance(y);
	return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}
const rgb = (s) => (/rgba?\((\d+), (\d+), (\d+)/.exec(s) || [0, -1, -1, -1]).slice(1, 4).map(Number);
// The fill of a canvas region (its commonest colour) and the colour of
// its label (the pixel that differs most from the fill).
async function fillAndLabel(page, x0, y0, x1, y1) {
	return page.$eval('#view-flame canvas', (c, box) => {
		const d = c.getContext('2d').getImageData(box[0], box[1], box[2] - box[0], box[3] - box[1]).data;
		const n = new Map();
		for (let i = 0; i < d.length; i += 4) {
			const k = d[i] + ',' + d[i + 1] + ',' + d[i + 2];
			n.set(k, (n.get(k) || 0) + 1);
		}
		const fill = [...n.entries()].sort((p, q) => q[1] - p[1])[0][0].split(',').map(Number);
		const px = [];
		for (let i = 0; i < d.length; i += 4)
			px.push([d[i], d[i + 1], d[i + 2]]);
		return [fill, px];
	}, [x0, y0, x1, y1]).then(([fill, px]) => {
		let best = fill, most = 1;
		for (const p of px)
			if (contrast(p, fill) > most) {
				most = contrast(p, fill);
				best = p;
			}
		return [fill, best, most];
	});
}
{
	// Moving the keys' focus repaints the frames it leaves and
	// reaches: the graph is not laid out again, its canvas stays, and
	// the words below it name each new frame.  Down ten times from
	// the reader's root along c1..c10 (each the widest child), then
	// right along d01..d10.
	const chain = Array.from({ length: 10 }, (_, i) => `c${i + 1}`);
	let folded = `${chain.join(';')} 20\n`;
	for (let k = 1; k <= 10; k++)
		folded += `${chain.slice(0, 9).join(';')};d${String(k).padStart(2, '0')} 1\n`;
	writeFileSync(`${scratch}/keys.folded`, folded);
	const page = await open(html(`${scratch}/keys.folded`, `${scratch}/keys.html`));
	await page.click('#tab-flame');
	await page.focus('#view-flame canvas');
	const layouts = () => page.$eval('#view-flame', (v) => Number(v.dataset.layouts));
	const l0 = await layouts();
	await page.evaluate(() => { window.keysCanvas = document.querySelector('#view-flame canvas'); });
	const want = [...chain, ...Array.from({ length: 10 }, (_, k) => `d${String(k + 1).padStart(2, '0')}`)];
	const wrong = [];
	for (let i = 0; i < 20; i++) {
		await page.keyboard.press(i < 10 ? 'ArrowDown' : 'ArrowRight');
		const said = await page.textContent('#flame-focus');
		if (!said.startsWith(want[i] + ':'))
			wrong.push(`${want[i]}: ${said.slice(0, 12)}`);
	}
	const same = await page.evaluate(() => window.keysCanvas === document.querySelector('#view-flame canvas') &&
	    document.activeElement === window.keysCanvas);
	const relaid = await layouts() - l0;
	check(same && relaid === 0, `20 arrow keys lay the flame graph out again ${relaid} times, same canvas ${same}`);
	check(wrong.length === 0, `the focus is named at each key: ${wrong.join(', ') || 'all 20'}`);
	// What the frames repainted leave is what a full drawing draws,
	// but for the rounding of an edge pixel's antialiasing.
	const pixels = (c) => c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
	await page.$eval('#view-flame canvas', (c, f) => { window.partial = eval(f)(c); }, pixels.toString());
	await page.click('#tab-tree');
	await page.click('#tab-flame');
	const [differ, most] = await page.$eval('#view-flame canvas', (c, f) => {
		const a = window.partial, b = eval(f)(c);
		let n = 0, d = a.length === b.length ? 0 : 255;
		for (let i = 0; i < a.length && i < b.length; i++)
			if (a[i] !== b[i]) {
				n++;
				d = Math.max(d, Math.abs(a[i] - b[i]));
			}
		return [n, d];
	}, pixels.toString());
	check(most <= 16, `the graph after the keys is the graph drawn afresh (${differ} values differ, by up to ${most})`);
	// Enter still zooms: one layout.
	await page.focus('#view-flame canvas');
	const l1 = await layouts();
	await page.keyboard.press('Enter');
	check(await layouts() === l1 + 1 && /^d10:/.test(await page.textContent('#flame-focus')),
	    `Enter zooms with one layout: ${await layouts() - l1}`);
	check(page.errors.length === 0, `keys: no script errors ${page.errors.join('; ')}`);
	await page.close();
}
{
	// Dark mode: the page is dark, its text light, and the flame
	// graph's labels read on their frames (WCAG AA, 4.5:1).
	writeFileSync(`${scratch}/dark.folded`, 'main;alpha 5\nmain;beta 4\nmain;beta;gamma 3\n');
	const page = await open(html(`${scratch}/dark.folded`, `${scratch}/dark.html`));
	await page.emulateMedia({ colorScheme: 'dark' });
	const [bg, fg] = await page.evaluate(() => [getComputedStyle(document.documentElement).backgroundColor,
	    getComputedStyle(document.body).color]);
	check(luminance(rgb(bg)) < 0.05 && luminance(rgb(fg)) > 0.5 && contrast(rgb(bg), rgb(fg)) >= 7,
	    `dark mode: background ${bg}, text ${fg}`);
	await page.click('#tab-flame');
	const W = await page.$eval('#view-flame canvas', (c) => c.width);
	// Under the reader's root and main, level 2: alpha, off the
	// expensive arm; beta, on it.
	for (const [name, x0, x1] of [['alpha', 1, Math.floor(W * 5 / 12) - 3], ['beta', Math.ceil(W * 5 / 12) + 1, W - 3]]) {
		const [fill, label, ratio] = await fillAndLabel(page, x0, 37, x1, 52);
		check(ratio >= 4.5 && luminance(fill) > 0.02,
		    `dark mode: ${name}'s label ${label} on ${fill}: ${ratio.toFixed(2)}:1`);
	}
	check(page.errors.length === 0, `dark: no script errors ${page.errors.join('; ')}`);
	await page.close();
}
{
	// Search on the flame graph: the graph stays shown, every frame
	// that matches is drawn in its colour and the others in grey, and
	// the page says how many stacks match (as many as ccs-stacks
	// prints whose cost centre's name contains the text).
	const prof = `${scratch}/fsearch.folded`;
	writeFileSync(prof, 'main;alpha;rev 5\nmain;beta;rev 4\nmain;beta;gamma 3\nmain;revx 2\n');
	const want = execFileSync(`${bindir}/ccs-stacks`, ['--all', prof]).toString().trim().split('\n')
	    .filter((l) => l.replace(/ \S+$/, '').split(';').pop().toLowerCase().includes('rev')).length;
	const page = await open(html(prof, `${scratch}/fsearch.html`));
	await page.click('#tab-flame');
	const px = (x, y) => page.$eval('#view-flame canvas', (c, p) => [...c.getContext('2d').getImageData(p[0], p[1], 1, 1).data].slice(0, 3).join(','), [x, y]);
	// alpha (no match) on level 2, under the reader's root and main;
	// its rev (a match) below it; inside any focus ring, off the label.
	const before = [await px(200, 40), await px(200, 58)];
	await page.fill('#search', 'rev');
	await page.press('#search', 'Enter');
	const after = [await px(200, 40), await px(200, 58)];
	const tab = await page.$eval('#tab-flame', (b) => b.classList.contains('active')) &&
	    await page.$eval('#view-flame', (v) => v.classList.contains('active'));
	const said = await page.textContent('#flame-matches').catch(() => '');
	const m = /^(\d+) matching frames?/.exec(said);
	check(tab, 'a search on the flame graph stays on the flame graph');
	check(want === 3 && m && Number(m[1]) === want, `matching frames counted: ${said} (ccs-stacks: ${want})`);
	check(after[0] !== before[0] && after[1] === before[1] && after[0] !== after[1],
	    `matches drawn apart: alpha ${before[0]} -> ${after[0]}, its rev ${before[1]} -> ${after[1]}`);
	check(/^rev:/.test(await page.textContent('#flame-focus')), `the keys' focus goes to a match: ${await page.textContent('#flame-focus')}`);
	await page.fill('#search', '');
	await page.press('#search', 'Enter');
	check(await px(200, 40) === before[0] && await page.$('#flame-matches') === null, 'an empty search draws all in colour again');
	check(page.errors.length === 0, `flame search: no script errors ${page.errors.join('; ')}`);
	await page.close();
}
{
	// A window 600 px wide: nothing scrolls sideways on the tree and
	// the flat table (with a source column too).
	for (const file of [`${scratch}/mj.html`, `${scratch}/calls.html`, `${scratch}/m9.html`]) {
		const page = await open(file);
		await page.setViewportSize({ width: 600, height: 800 });
		await page.click('#expand-hot');
		const tree = await page.evaluate(() => document.documentElement.scrollWidth);
		await page.click('#tab-flat');
		const flat = await page.evaluate(() => document.documentElement.scrollWidth);
		check(tree <= 600 && flat <= 600, `600 px: tree ${tree} px wide, flat ${flat} px (${file.replace(/.*\//, '')})`);
		await page.close();
	}
	// Narrower: at 480 px the flat table of mj fits in smaller type;
	// at 360 px it scrolls in its own box, whose last column can be
	// scrolled into the window, and the page does not scroll sideways.
	const page = await open(`${scratch}/mj.html`);
	await page.click('#tab-flat');
	for (const width of [480, 360]) {
		await page.setViewportSize({ width, height: 800 });
		const [doc, box, boxIn, right] = await page.evaluate(() => {
			const b = document.querySelector('#view-flat .flatbox');
			b.scrollLeft = b.scrollWidth;
			const last = b.querySelector('th:last-child').getBoundingClientRect().right;
			return [document.documentElement.scrollWidth, b.scrollWidth, b.clientWidth, last];
		});
		check(doc <= width && right <= width, `${width} px: the page ${doc} px wide, the flat table's last column ends at ${right}`);
		if (width === 480)
			check(box <= boxIn, `480 px: the flat table fits its box (${box} px in ${boxIn})`);
		else
			check(box > boxIn, `360 px: the flat table scrolls in its box (${box} px in ${boxIn})`);
	}
	await page.click('#tab-tree');
	await page.click('#expand-hot');
	const tree = await page.evaluate(() => document.documentElement.scrollWidth);
	await page.click('#tab-callers');
	const callers = await page.evaluate(() => document.documentElement.scrollWidth);
	check(tree <= 360 && callers <= 360, `360 px: tree ${tree} px wide, callers ${callers} px`);
	await page.close();
}

await browser.close();
console.log(failures ? `${failures} failed` : 'all passed');
process.exit(failures ? 1 : 0);
