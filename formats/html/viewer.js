/*
 * ccstools HTML viewer.  Embedded into every page ccs2html writes, after
 * the profile data (the JSON script element whose id is profile-data).
 *
 * Everything the command-line tools do to a profile is done here again,
 * with the same semantics (Morgan & Jarvis): selection is a projection
 * through Push with compressed stacks, thresholds and excludes fold the
 * removed cost into the parent, flat cost goes to the cost centre on top
 * of each stack and inherited cost once to every cost centre on it.
 *
 * Names are only ever put into the page with textContent: a cost centre
 * called <img onerror=...> is text.  The stack tree is built lazily: only
 * expanded nodes exist in the DOM, so a million-node profile opens fast.
 */
'use strict';
(function () {
	const D = JSON.parse(document.getElementById('profile-data').textContent);
	loadNodes();
	const NM = D.metrics.length;
	const NCC = D.ccs.length;
	const isCount = D.metrics.map(function (m) { return m.kind === 'count'; });
	const entriesMetric = D.metrics.findIndex(function (m) { return m.name === 'entries'; });
	const SYNTHETIC = 2;

	function ccLabel(c) { return D.ccs[c][0]; }
	function ccModule(c) { return D.ccs[c][1]; }
	function ccFull(c) { return D.ccs[c][1] ? D.ccs[c][1] + '.' + D.ccs[c][0] : D.ccs[c][0]; }
	function isSynthetic(c) { return (D.ccs[c][3] & SYNTHETIC) !== 0; }
	function ccSrc(c) { return D.ccs[c][2]; }
	/*
	 * Cost centres that share a module and a label with another, as
	 * GHC's -fprof-auto-calls makes them: told apart by their source,
	 * as the command-line tools tell them apart (pdb_names_shared()).
	 */
	const collides = new Uint8Array(NCC);
	let anyCollides = false;
	(function () {
		const count = new Map(), key = (c) => ccModule(c) + '\0' + ccLabel(c);
		for (let c = 0; c < NCC; c++)
			count.set(key(c), (count.get(key(c)) || 0) + 1);
		for (let c = 0; c < NCC; c++)
			if (count.get(key(c)) > 1) {
				collides[c] = 1;
				anyCollides = true;
			}
	})();
	/* The full name, with the source where it must tell two apart. */
	function ccName(c) {
		return collides[c] && ccSrc(c) ? ccFull(c) + ' (' + ccSrc(c) + ')' : ccFull(c);
	}

	/* ---- trees: typed arrays, children as linked lists ---- */

	function Tree(cap) {
		this.n = 0;
		this.cap = Math.max(cap, 16);
		this.cc = new Int32Array(this.cap);
		this.parent = new Int32Array(this.cap);
		this.first = new Int32Array(this.cap);
		this.last = new Int32Array(this.cap);
		this.next = new Int32Array(this.cap);
		this.own = [];
		for (let m = 0; m < NM; m++)
			this.own.push(new Float64Array(this.cap));
	}
	/*
	 * A map from pairs of non-negative 32-bit integers (a node and a cost
	 * centre) to node numbers, -1 when absent: open addressing in typed
	 * arrays.  A Map holds at most some 16.7 million entries and takes
	 * some 80 bytes an entry; projecting a deep Clean profile needs more.
	 */
	function PairMap() {
		this.n = 0;
		this.alloc(1 << 12);
	}
	PairMap.prototype.alloc = function (cap) {
		this.mask = cap - 1;
		this.ka = new Int32Array(cap).fill(-1);
		this.kb = new Int32Array(cap);
		this.v = new Int32Array(cap);
	};
	PairMap.prototype.slot = function (a, b) {
		let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
		h ^= h >>> 15;
		let i = h & this.mask;
		while (this.ka[i] >= 0 && (this.ka[i] !== a || this.kb[i] !== b))
			i = (i + 1) & this.mask;
		return i;
	};
	PairMap.prototype.get = function (a, b) {
		const i = this.slot(a, b);
		return this.ka[i] >= 0 ? this.v[i] : -1;
	};
	PairMap.prototype.set = function (a, b, v) {
		let i = this.slot(a, b);
		if (this.ka[i] < 0) {
			if (2 * (this.n + 1) > this.mask + 1) {
				const ka = this.ka, kb = this.kb, vv = this.v;
				this.alloc(2 * (this.mask + 1));
				for (let j = 0; j < ka.length; j++)
					if (ka[j] >= 0) {
						const k = this.slot(ka[j], kb[j]);
						this.ka[k] = ka[j];
						this.kb[k] = kb[j];
						this.v[k] = vv[j];
					}
				i = this.slot(a, b);
			}
			this.n++;
			this.ka[i] = a;
			this.kb[i] = b;
		}
		this.v[i] = v;
	};

	Tree.prototype.grow = function () {
		const cap = this.cap * 2;
		const g = function (a, T) { const b = new T(cap); b.set(a); return b; };
		this.cc = g(this.cc, Int32Array);
		this.parent = g(this.parent, Int32Array);
		this.first = g(this.first, Int32Array);
		this.last = g(this.last, Int32Array);
		this.next = g(this.next, Int32Array);
		for (let m = 0; m < NM; m++)
			this.own[m] = g(this.own[m], Float64Array);
		this.cap = cap;
	};
	Tree.prototype.add = function (parent, cc) {
		if (this.n === this.cap)
			this.grow();
		const i = this.n++;
		this.cc[i] = cc;
		this.parent[i] = parent;
		this.first[i] = this.last[i] = this.next[i] = -1;
		if (parent >= 0) {
			if (this.last[parent] < 0)
				this.first[parent] = i;
			else
				this.next[this.last[parent]] = i;
			this.last[parent] = i;
		}
		return i;
	};

	/*
	 * The nodes come in chunks, each a script element of its own (a
	 * browser caps a string, and so one element's text, at some 512 MB):
	 * into typed arrays, each element removed once read, so that the
	 * page's text is not held beside them.
	 */
	function loadNodes() {
		const n = D.nodes;
		let at = 0;
		D.cc = new Int32Array(n);
		D.kids = new Int32Array(n);
		D.values = [];
		for (let m = 0; m < D.metrics.length; m++)
			D.values.push(new Float64Array(n));
		for (const el of document.querySelectorAll('script.profile-chunk')) {
			const c = JSON.parse(el.textContent);
			if (at + c.cc.length > n)
				throw new Error('the page has more nodes than it says');
			D.cc.set(c.cc, at);
			D.kids.set(c.kids, at);
			for (let m = 0; m < D.values.length; m++)
				D.values[m].set(c.values[m], at);
			at += c.cc.length;
			el.remove();
		}
		if (at !== n)
			throw new Error('the page has ' + at + ' of its ' + n + ' nodes');
	}

	function baseTree() {
		const n = D.nodes, t = new Tree(n);
		const stack = new Int32Array(n + 1), left = new Int32Array(n + 1);
		let sp = 0;
		for (let i = 0; i < n; i++) {
			t.add(sp > 0 ? stack[sp - 1] : -1, D.cc[i]);
			for (let m = 0; m < NM; m++)
				t.own[m][i] = D.values[m][i];
			if (sp > 0)
				left[sp - 1]--;
			stack[sp] = i;
			left[sp++] = D.kids[i];
			while (sp > 0 && left[sp - 1] === 0)
				sp--;
		}
		return t;
	}

	/* Pre-order and depth of every node, without recursion. */
	function walk(t) {
		const order = new Int32Array(t.n), depth = new Int32Array(t.n);
		let k = 0, n = 0, d = 0;
		while (n >= 0) {
			order[k++] = n;
			depth[n] = d;
			if (t.first[n] >= 0) {
				n = t.first[n];
				d++;
				continue;
			}
			while (n >= 0 && t.next[n] < 0) {
				n = t.parent[n];
				d--;
			}
			if (n >= 0)
				n = t.next[n];
		}
		return { order: order, depth: depth };
	}

	function inclusive(t, order) {
		const inc = [];
		for (let m = 0; m < NM; m++) {
			const a = Float64Array.from(t.own[m].subarray(0, t.n));
			for (let k = t.n - 1; k > 0; k--) {
				const i = order[k];
				a[t.parent[i]] += a[i];
			}
			inc.push(a);
		}
		return inc;
	}

	/* ---- projection through Push (Morgan & Jarvis 2.4.2) ---- */

	function project(t, order, sel) {
		const out = new Tree(t.n), img = new Int32Array(t.n);
		const index = new PairMap();
		function child(p, c) {
			let x = index.get(p, c);
			if (x < 0) {
				x = out.add(p, c);
				index.set(p, c, x);
			}
			return x;
		}
		function push(s, c) {
			const known = index.get(s, c);
			if (known >= 0)
				return known;
			const path = [];
			let n = s;
			while (n !== 0 && out.cc[n] !== c) {
				path.push(out.cc[n]);
				n = out.parent[n];
			}
			if (n === 0)
				return child(s, c);
			let r = out.parent[n];
			while (path.length)
				r = child(r, path.pop());
			r = child(r, c);
			index.set(s, c, r);
			return r;
		}
		out.add(-1, t.cc[0]);
		img[0] = 0;
		for (let m = 0; m < NM; m++)
			out.own[m][0] = t.own[m][0];
		for (let k = 1; k < t.n; k++) {
			const i = order[k], c = t.cc[i], p = img[t.parent[i]];
			img[i] = sel[c] ? push(p, c) : p;
			for (let m = 0; m < NM; m++)
				if (!isCount[m] || sel[c])
					out.own[m][img[i]] += t.own[m][i];
		}
		return out;
	}

	/* ---- pruning: removed subtrees fold their cost into the parent ---- */

	function prune(t, order, inc, m, min, excluded) {
		const out = new Tree(t.n), img = new Int32Array(t.n);
		const report = { stacks: 0, folded: new Float64Array(NM) };
		out.add(-1, t.cc[0]);
		for (let mm = 0; mm < NM; mm++)
			out.own[mm][0] = t.own[mm][0];
		for (let k = 1; k < t.n; k++) {
			const i = order[k], p = img[t.parent[i]];
			if (p < 0) {
				img[i] = -1;
				continue;
			}
			if (inc[m][i] >= min && !(excluded && excluded(t.cc[i]))) {
				img[i] = out.add(p, t.cc[i]);
				for (let mm = 0; mm < NM; mm++)
					out.own[mm][img[i]] = t.own[mm][i];
				continue;
			}
			img[i] = -1;
			report.stacks++;
			/* Costs fold into the parent; counts are dropped, as
			 * ccs-prune does, and the report says how many. */
			for (let mm = 0; mm < NM; mm++) {
				if (!isCount[mm])
					out.own[mm][p] += inc[mm][i];
				report.folded[mm] += inc[mm][i];
			}
		}
		return { tree: out, report: report };
	}

	/* ---- analyses ---- */

	function analyse(t) {
		const w = walk(t), inc = inclusive(t, w.order);
		const self = [], inh = [];
		for (let m = 0; m < NM; m++) {
			self.push(new Float64Array(NCC));
			inh.push(new Float64Array(NCC));
		}
		const seen = new Uint8Array(NCC), onpath = new Int32Array(NCC);
		const path = new Int32Array(t.n + 1);
		let sp = 0;
		for (let k = 0; k < t.n; k++) {
			const i = w.order[k], c = t.cc[i];
			while (sp > w.depth[i])
				onpath[t.cc[path[--sp]]]--;
			const outer = onpath[c] === 0;
			onpath[c]++;
			path[sp++] = i;
			seen[c] = 1;
			for (let m = 0; m < NM; m++) {
				self[m][c] += t.own[m][i];
				if (outer)
					inh[m][c] += inc[m][i];
			}
		}
		return { order: w.order, depth: w.depth, inc: inc, self: self, inh: inh, seen: seen };
	}

	function hotStack(t, order, m) {
		let best = 0;
		for (let k = 0; k < t.n; k++)
			if (t.own[m][order[k]] > t.own[m][best])
				best = order[k];
		return best;
	}

	function expensiveArm(t, inc, m) {
		const arm = [0];
		let n = 0;
		for (;;) {
			let best = -1;
			for (let c = t.first[n]; c >= 0; c = t.next[c])
				if (best < 0 || inc[m][c] > inc[m][best])
					best = c;
			if (best < 0 || inc[m][best] <= 0)
				break;
			arm.push(n = best);
		}
		return arm;
	}

	/* The inverted call graph of cost centre x (outermost occurrences). */
	function callers(t, a, x) {
		const out = new Tree(64), index = new PairMap();
		out.add(-1, x);
		const onpath = new Int32Array(NCC), path = new Int32Array(t.n + 1);
		let sp = 0, found = 0, leaf = 0;
		for (let k = 0; k < t.n; k++) {
			const i = a.order[k], c = t.cc[i];
			while (sp > a.depth[i])
				onpath[t.cc[path[--sp]]]--;
			const outer = c === x && onpath[x] === 0;
			/* An inner occurrence's counts go to its outermost's
			 * context, as ccs-callers counts them. */
			if (c === x && !outer)
				for (let m = 0; m < NM; m++)
					if (isCount[m])
						out.own[m][leaf] += t.own[m][i];
			onpath[c]++;
			path[sp++] = i;
			if (!outer)
				continue;
			found++;
			let r = 0;
			for (let j = sp - 2; j >= 0; j--) {
				const cc = t.cc[path[j]];
				/* A reader's made-up root calls nothing:
				 * ccs-callers leaves it out too. */
				if (isSynthetic(cc))
					continue;
				let y = index.get(r, cc);
				if (y < 0) {
					y = out.add(r, cc);
					index.set(r, cc, y);
				}
				r = y;
			}
			for (let m = 0; m < NM; m++)
				out.own[m][r] += isCount[m] ? t.own[m][i] : a.inc[m][i];
			leaf = r;
		}
		return found ? out : null;
	}

	/* ---- globs, as fnmatch(3) without flags ---- */

	/* The POSIX classes of a bracket expression, in the C locale. */
	const CLASSES = {
		alpha: 'a-zA-Z', digit: '0-9', alnum: '0-9a-zA-Z', upper: 'A-Z',
		lower: 'a-z', xdigit: '0-9A-Fa-f', space: ' \\t\\n\\r\\f\\v',
		blank: ' \\t', punct: '!-\\/:-@\\[-`{-~', cntrl: '\\x00-\\x1f\\x7f',
		print: ' -~', graph: '!-~'
	};
	const NEVER = /(?!)/;
	/* Patterns and names are matched as their UTF-8 bytes, one
	 * character a byte, as fnmatch(3) matches them in the tools: '?'
	 * is a byte, as it is in the C locale. */
	function classChar(ch) {
		return '\\x' + (0x100 + ch.charCodeAt(0)).toString(16).slice(1);
	}
	/*
	 * The bracket expression that starts at pat[i] ('['): [its regex
	 * text, the index of its ']'], null when no ']' ends it (the '[' is
	 * then a character), or NEVER for a range out of order or an unknown
	 * class, which match nothing.
	 */
	function bracket(pat, i) {
		let j = i + 1, body = '', neg = false;
		if (pat[j] === '!' || pat[j] === '^') {
			neg = true;
			j++;
		}
		for (let first = true; j < pat.length && (pat[j] !== ']' || first); first = false) {
			if (pat.startsWith('[:', j)) {
				const e = pat.indexOf(':]', j + 2);
				if (e > 0) {
					const cls = CLASSES[pat.slice(j + 2, e)];
					if (cls === undefined)
						return NEVER;
					body += cls;
					j = e + 2;
					continue;
				}
			}
			let lo = String.fromCodePoint(pat.codePointAt(j));
			if (lo === '\\' && j + 1 < pat.length)
				lo = String.fromCodePoint(pat.codePointAt(++j));
			j += lo.length;
			if (pat[j] === '-' && j + 1 < pat.length && pat[j + 1] !== ']') {
				let k = j + 1, hi = String.fromCodePoint(pat.codePointAt(k));
				if (hi === '\\' && k + 1 < pat.length)
					hi = String.fromCodePoint(pat.codePointAt(++k));
				if (hi.codePointAt(0) < lo.codePointAt(0))
					return NEVER;
				body += classChar(lo) + '-' + classChar(hi);
				j = k + hi.length;
			} else
				body += classChar(lo);
		}
		if (j >= pat.length)
			return null;
		return ['[' + (neg ? '^' : '') + body + ']', j];
	}
	/* A glob as fnmatch(3) without flags matches it, as a RegExp. */
	function globRegex(pat) {
		let re = '^';
		for (let i = 0; i < pat.length; i++) {
			const ch = pat[i];
			if (ch === '*')
				re += '.*';
			else if (ch === '?')
				re += '.';
			else if (ch === '[') {
				const b = bracket(pat, i);
				if (b === NEVER)
					return NEVER;
				if (b === null)
					re += '\\[';
				else {
					re += b[0];
					i = b[1];
				}
			} else if (ch === '\\' && i + 1 < pat.length)
				re += pat[++i].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
			else
				re += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
		}
		try {
			return new RegExp(re + '$', 's');
		} catch (e) {
			return NEVER;
		}
	}
	/*
	 * The patterns of a text box, separated by white space; a blank in
	 * a pattern is written with a backslash before it.
	 */
	/* The UTF-8 bytes of s, a character each. */
	const encoder = new TextEncoder();
	function bytesOf(s) {
		const b = encoder.encode(s);
		let r = '';
		for (let i = 0; i < b.length; i += 8192)
			r += String.fromCharCode.apply(null, b.subarray(i, i + 8192));
		return r;
	}
	const labelBytes = [], fullBytes = [];
	function splitPatterns(text) {
		return text.match(/(?:\\[\s\S]|\S)+/g) || [];
	}
	/* Whether one of the RegExps pats matches cost centre c. */
	function matchesCc(pats, c) {
		if (labelBytes[c] === undefined) {
			/* A name not UTF-8 comes with its bytes. */
			const raw = D.ccs[c].length > 5;
			const l = raw ? D.ccs[c][4] : bytesOf(ccLabel(c));
			const m = raw ? D.ccs[c][5] : bytesOf(ccModule(c));
			labelBytes[c] = l;
			fullBytes[c] = m ? m + '.' + l : l;
		}
		const l = labelBytes[c], f = fullBytes[c];
		return pats.some(function (r) { return r.test(l) || r.test(f); });
	}
	function matcher(text) {
		const pats = splitPatterns(text).map(function (p) {
			return globRegex(bytesOf(p));
		});
		if (!pats.length)
			return null;
		return function (c) { return matchesCc(pats, c); };
	}
	/* The patterns of text that match no cost centre of the profile:
	 * a typo would otherwise change nothing silently (tool_unmatched()). */
	function unmatched(text) {
		return splitPatterns(text).filter(function (p) {
			const r = [globRegex(bytesOf(p))];
			for (let c = 0; c < NCC; c++)
				if (matchesCc(r, c))
					return false;
			return true;
		});
	}

	/* ---- state and pipeline ---- */

	const base = baseTree();
	/* The tree has them all now. */
	D.cc = D.kids = D.values = null;
	const baseWalk = walk(base);
	const baseSeen = new Uint8Array(NCC);
	for (let i = 0; i < base.n; i++)
		baseSeen[base.cc[i]] = 1;
	const S = {
		/* The writer's choice: ccs2html -m, else the tools' default. */
		metric: D.metric >= 0 && D.metric < D.metrics.length ? D.metric : 0,
		selectPat: '', deselectPat: '', override: new Map(), kept: new Map(),
		min: 0, exclude: '', search: '',
		tab: 'tree', sortCol: 'self', sortDesc: true, flatLimit: 300, flatStart: 0, flatFrom: 0,
		tree: null, a: null, report: null, sel: null, unmatched: [],
		expanded: new Set(), limits: new Map(), hot: 0, arm: [], armSet: new Set(),
		callersOf: -1, callersTree: null, callersA: null, callersStale: false, error: '',
		callersExpanded: new Set(),
		callersLimits: new Map(), searchFrom: 0, hit: -1, hitPath: new Set(), flameRoot: 0,
		flameFocus: -1
	};

	function selection() {
		const sel = new Uint8Array(NCC);
		const s = matcher(S.selectPat), d = matcher(S.deselectPat);
		for (let c = 0; c < NCC; c++) {
			let on = s ? s(c) : true;
			if (on && d && d(c))
				on = false;
			if (S.override.has(c))
				on = S.override.get(c);
			sel[c] = on ? 1 : 0;
		}
		sel[base.cc[0]] = 1;
		return sel;
	}

	/*
	 * What the view was last computed from: a computation that fails,
	 * out of memory in a huge profile, leaves the view as it was, with
	 * the inputs it was computed from, and says so.
	 */
	let applied = null;

	function inputs() {
		return { selectPat: S.selectPat, deselectPat: S.deselectPat,
		    override: new Map(S.override), min: S.min,
		    exclude: S.exclude, metric: S.metric };
	}

	function recompute() {
		const t0 = performance.now();
		try {
			compute();
			applied = inputs();
			S.error = '';
		} catch (e) {
			if (applied === null)
				throw e;
			/* A copy of the overrides: S's are changed in place. */
			Object.assign(S, applied, { override: new Map(applied.override) });
			showInputs();
			S.error = failed(e);
		}
		S.elapsed = performance.now() - t0;
		render();
	}

	function failed(e) {
		return 'The change could not be applied (' + (e && e.message ? e.message : String(e)) +
		    '): the view is as it was.';
	}

	/* The view of the inputs in S, all of it computed before any of S
	 * changes. */
	function compute() {
		const sel = selection();
		const none = [];
		[['select', S.selectPat], ['de-select', S.deselectPat], ['exclude', S.exclude]].forEach(function (p) {
			unmatched(p[1]).forEach(function (x) { none.push(p[0] + ' \u201c' + x + '\u201d'); });
		});
		let t = base, order = baseWalk.order, report = null;
		if (sel.some(function (v, c) { return !v && baseSeen[c]; })) {
			t = project(base, order, sel);
			order = walk(t).order;
		}
		const ex = matcher(S.exclude);
		if (S.min > 0 || ex) {
			const inc = inclusive(t, order);
			const r = prune(t, order, inc, S.metric, S.min, ex);
			t = r.tree;
			report = r.report;
		}
		const a = analyse(t);
		const hot = hotStack(t, a.order, S.metric);
		const arm = expensiveArm(t, a.inc, S.metric);
		S.sel = sel;
		S.unmatched = none;
		S.report = report;
		S.tree = t;
		S.a = a;
		S.hot = hot;
		S.arm = arm;
		S.armSet = new Set(arm);
		S.expanded = new Set([0]);
		S.limits = new Map();
		S.hit = -1;
		S.hitPath = new Set();
		S.searchFrom = 0;
		S.flatStart = 0;
		S.flameRoot = 0;
		S.flameFocus = -1;
		/* The callers take seconds on a million stacks: made again
		 * only when their view is shown (freshCallers()). */
		S.callersStale = S.callersOf >= 0;
	}

	/* The callers view of cost centre x in tree t (none for x < 0). */
	function callersView(t, a, x) {
		const ct = x >= 0 ? callers(t, a, x) : null;
		return { callersOf: x, callersTree: ct, callersA: ct ? analyse(ct) : null,
		    callersExpanded: new Set([0]), callersLimits: new Map() };
	}

	/* Show the callers of x, or say why not and keep the view. */
	function showCallers(x) {
		try {
			Object.assign(S, callersView(S.tree, S.a, x));
			S.callersStale = false;
			S.error = '';
		} catch (e) {
			S.error = failed(e);
		}
	}

	/* The callers of the view now, before they are shown; those of
	 * the view before, and a word why, if they cannot be made (asked
	 * again the next time). */
	function freshCallers() {
		if (!S.callersStale)
			return;
		try {
			Object.assign(S, callersView(S.tree, S.a, S.callersOf));
			S.callersStale = false;
		} catch (e) {
			S.error = failed(e);
		}
	}

	/* ---- DOM helpers ---- */

	function el(tag, cls, text) {
		const e = document.createElement(tag);
		if (cls)
			e.className = cls;
		if (text !== undefined)
			e.textContent = text;
		return e;
	}
	/* The label of cost centre c as an element: an empty label (GHC's
	 * SCC "") is shown as a mark, so that there is something to see
	 * and to click. */
	function labelEl(cls, c) {
		const l = ccLabel(c), e = el('span', cls, l || '(empty label)');
		if (!l)
			e.classList.add('unnamed');
		return e;
	}
	/* Element e does fn when clicked, and when focused (it takes the
	 * focus with Tab) and Enter or Space is pressed; it is a button
	 * unless it has a role of its own (a column head). */
	function activatable(e, fn) {
		e.tabIndex = 0;
		if (e.tagName !== 'TH')
			e.setAttribute('role', 'button');
		e.addEventListener('click', fn);
		e.addEventListener('keydown', function (ev) {
			if (ev.key === 'Enter' || ev.key === ' ') {
				ev.preventDefault();
				fn();
			}
		});
		return e;
	}
	/* Give the focus back to what the re-drawn view has in the place
	 * of the element that had it. */
	function refocus(selector) {
		const e = document.querySelector(selector);
		if (e)
			e.focus();
	}
	function fmt(v) { return Math.round(v).toLocaleString('en-US'); }
	/*
	 * A percentage to one decimal, as the command-line tools print it:
	 * rounded to nearest, ties to even (0.25 is "0.2"), where
	 * toFixed() would round ties up.  Ties are exact only at odd
	 * multiples of 0.25, whose tenfold is exact in a double.
	 */
	function pct(v, total) {
		if (!total)
			return '0.0';
		const x = 100 * v / total, t = x * 10;
		if (Number.isInteger(x * 4) && t - Math.floor(t) === 0.5) {
			const lo = Math.floor(t), r = lo % 2 === 0 ? lo : lo + 1;
			return (r < 0 ? '-' : '') + (Math.abs(r) / 10).toFixed(1);
		}
		return x.toFixed(1);
	}
	function total() { return S.a.inc[S.metric][0]; }

	/* ---- layout ---- */

	const app = document.getElementById('app');
	const header = el('header');
	const title = el('h1', '', (D.program || D.name || 'profile') + ' \u2014 cost-centre-stack profile');
	const sub = el('div', 'sub', [D.command, D.date].filter(Boolean).join(' \u00b7 '));
	header.append(title, sub);

	const controls = el('div', 'controls');
	function labelled(text, input) {
		const l = el('label', '', text + ' ');
		l.append(input);
		return l;
	}
	const metricSel = el('select');
	metricSel.id = 'metric';
	D.metrics.forEach(function (m, i) {
		const o = el('option', '', m.name + ' (' + m.unit + ')');
		o.value = String(i);
		metricSel.append(o);
	});
	metricSel.value = String(S.metric);
	/* The minimum is in the unit of the metric shown: say which. */
	const minUnit = el('span', 'unit', D.metrics.length ? D.metrics[S.metric].unit : '');
	minUnit.id = 'min-unit';
	metricSel.addEventListener('change', function () {
		S.metric = Number(metricSel.value);
		minUnit.textContent = D.metrics[S.metric].unit;
		recompute();
	});
	function textInput(id, placeholder) {
		const i = el('input');
		i.type = 'text';
		i.id = id;
		i.placeholder = placeholder;
		return i;
	}
	const selectIn = textInput('select', 'e.g. Main.*');
	const deselectIn = textInput('deselect', 'e.g. rev GHC.*');
	const minIn = el('input');
	minIn.type = 'number';
	minIn.id = 'min';
	minIn.min = '0';
	minIn.placeholder = '0';
	const excludeIn = textInput('exclude', 'glob');
	const applyBtn = el('button', '', 'Apply');
	applyBtn.id = 'apply';
	const resetBtn = el('button', '', 'Reset');
	resetBtn.id = 'reset';
	const searchIn = textInput('search', 'find cost centre');
	const searchBtn = el('button', '', 'Find next');
	searchBtn.id = 'find';
	const hotBtn = el('button', '', 'Expand hot arm');
	hotBtn.id = 'expand-hot';
	const minLabel = labelled('min inclusive', minIn);
	minLabel.append(' ', minUnit);
	const pats = el('span', 'patterns');
	pats.append(labelled('select', selectIn), ' ', labelled('de-select', deselectIn));
	controls.append(labelled('metric', metricSel), pats,
	    minLabel, labelled('exclude', excludeIn),
	    applyBtn, resetBtn, labelled('search', searchIn), searchBtn, hotBtn);

	/* The inputs as S has them, after a change that failed. */
	function showInputs() {
		selectIn.value = S.selectPat;
		deselectIn.value = S.deselectPat;
		minIn.value = S.min ? String(S.min) : '';
		excludeIn.value = S.exclude;
		metricSel.value = String(S.metric);
		minUnit.textContent = D.metrics.length ? D.metrics[S.metric].unit : '';
	}

	function apply() {
		S.selectPat = selectIn.value;
		S.deselectPat = deselectIn.value;
		S.min = Number(minIn.value) || 0;
		S.exclude = excludeIn.value;
		recompute();
	}
	applyBtn.addEventListener('click', apply);
	[selectIn, deselectIn, minIn, excludeIn].forEach(function (i) {
		i.addEventListener('keydown', function (e) { if (e.key === 'Enter') apply(); });
	});
	resetBtn.addEventListener('click', function () {
		selectIn.value = deselectIn.value = excludeIn.value = minIn.value = '';
		S.override.clear();
		S.kept.clear();
		apply();
	});

	const hotline = el('div', 'hotline');
	const status = el('div', 'status');
	status.id = 'status';
	const tabs = el('div', 'tabs');
	const views = {};
	const main = el('main');
	['tree', 'flat', 'flame', 'callers'].forEach(function (name) {
		const b = el('button', '', { tree: 'Stack tree', flat: 'Flat / inherited',
		    flame: 'Flame graph', callers: 'Callers' }[name]);
		b.id = 'tab-' + name;
		b.addEventListener('click', function () { S.tab = name; render(); });
		tabs.append(b);
		views[name] = el('div', 'view');
		views[name].id = 'view-' + name;
		main.append(views[name]);
	});
	const tip = el('div', 'tip');
	app.append(header, controls, hotline, tabs, status, main, tip);

	/* ---- the stack tree ---- */

	/*
	 * The head of the stack tree's columns, or of the callers' (x's):
	 * there a node is a calling context of x, and has one cost, as
	 * ccs-callers prints it: that of x reached through it, whose share
	 * of all of x's is the percentage.
	 */
	function treeHead(x) {
		const h = el('div', 'row head');
		if (x >= 0) {
			const p = el('span', 'num', '% of callee');
			p.title = 'share of all the cost of ' + ccName(x);
			h.append(el('span', '', 'calling context'), el('span', 'num', 'inclusive'),
			    p, el('span', '', ''));
		} else
			h.append(el('span', '', 'cost centre'), el('span', 'num', 'self'),
			    el('span', 'num', '%'), el('span', 'num', 'inherited'),
			    el('span', 'num', '%'), el('span', '', ''));
		return h;
	}

	/*
	 * The indentation of a row depth levels down: a level is 14 px
	 * down to INDENT levels, no more below, or a deep stack would push
	 * its names out of their column; there the depth is written.
	 */
	const INDENT = 20;
	function indent(depth) { return Math.min(depth, INDENT) * 14; }

	/* The row of node i of tree t (analysis a), depth levels down: of
	 * the callers' tree, with their columns, when callers is true. */
	function treeRow(t, a, i, depth, expanded, callers, redraw) {
		const row = el('div', 'row');
		row.dataset.node = String(i);
		const m = S.metric, tot = a.inc[m][0];
		if (!callers) {
			if (i === S.hot)
				row.classList.add('hot');
			if (S.armSet.has(i))
				row.classList.add('arm');
			if (i === S.hit)
				row.classList.add('hit');
		}
		const name = el('span', 'name');
		name.style.paddingLeft = indent(depth) + 'px';
		if (depth > INDENT) {
			const d = el('span', 'depth', '\u21b3' + depth);
			d.title = 'level ' + depth + ' of the stack';
			name.append(d);
		}
		const tg = el('span', 'toggle', t.first[i] < 0 ? '\u00b7' :
		    expanded.has(i) ? '\u25be' : '\u25b8');
		name.append(tg, labelEl('label', t.cc[i]));
		if (ccModule(t.cc[i]))
			name.append(el('span', 'mod', ccModule(t.cc[i])));
		if (collides[t.cc[i]] && ccSrc(t.cc[i]))
			name.append(el('span', 'mod src', ccSrc(t.cc[i])));
		name.title = ccName(t.cc[i]);
		const self = el('span', 'num self', fmt(t.own[m][i]));
		self.dataset.v = String(t.own[m][i]);
		const inh = el('span', 'num inh', fmt(a.inc[m][i]));
		inh.dataset.v = String(a.inc[m][i]);
		const barbox = el('span', 'barbox'), bar = el('div', 'bar');
		bar.style.width = Math.max(0, Math.min(100, tot ? 100 * a.inc[m][i] / tot : 0)) + '%';
		barbox.append(bar);
		if (callers)
			row.append(name, inh, el('span', 'num pct', pct(a.inc[m][i], tot)), barbox);
		else
			row.append(name, self, el('span', 'num', pct(t.own[m][i], tot)), inh,
			    el('span', 'num', pct(a.inc[m][i], tot)), barbox);
		if (t.first[i] >= 0) {
			tg.setAttribute('aria-expanded', String(expanded.has(i)));
			tg.title = 'expand or collapse (Enter)';
			activatable(tg, function () {
				if (expanded.has(i))
					expanded.delete(i);
				else
					expanded.add(i);
				redraw();
				refocus('#view-' + S.tab + ' .row[data-node="' + i + '"] .toggle');
			});
		}
		return row;
	}

	/*
	 * The rows of tree t from its root: a node, then, when it is
	 * expanded, its children by inclusive cost, the first limits[node]
	 * (200) of them.  One flat list, made without recursion: a stack
	 * may be thousands of levels deep, too deep for nested elements or
	 * a recursive walk.  The children on the way to onway (a search
	 * hit) are shown however far down the list they are.
	 */
	function treeRows(t, a, expanded, limits, callers, onway, redraw) {
		const rows = [], work = [[0, 0]];
		const m = S.metric;
		while (work.length) {
			const w = work.pop();
			if (w.length === 3) {
				const more = el('div', 'more', '\u2026 ' + w[2] + ' more children');
				more.style.paddingLeft = (indent(w[1]) + 18) + 'px';
				activatable(more, function () {
					limits.set(w[0], (limits.get(w[0]) || 200) + 200);
					redraw();
				});
				rows.push(more);
				continue;
			}
			const i = w[0], depth = w[1];
			rows.push(treeRow(t, a, i, depth, expanded, callers, redraw));
			if (!expanded.has(i) || t.first[i] < 0)
				continue;
			const cs = [];
			for (let c = t.first[i]; c >= 0; c = t.next[c])
				cs.push(c);
			cs.sort(function (x, y) { return a.inc[m][y] - a.inc[m][x]; });
			let shown = Math.min(cs.length, limits.get(i) || 200);
			for (let k = shown; k < cs.length; k++)
				if (onway.has(cs[k]))
					shown = k + 1;
			if (shown < cs.length)
				work.push([i, depth + 1, cs.length - shown]);
			for (let k = shown; k-- > 0;)
				work.push([cs[k], depth + 1]);
		}
		return rows;
	}

	function renderTree() {
		const v = views.tree;
		v.textContent = '';
		const tr = el('div', 'tree');
		tr.append(treeHead(-1));
		treeRows(S.tree, S.a, S.expanded, S.limits, false, S.hitPath,
		    renderTree).forEach(function (r) { tr.appendChild(r); });
		v.append(tr);
	}

	function expandPath(n) {
		S.hitPath = new Set([n]);
		for (let p = S.tree.parent[n]; p >= 0; p = S.tree.parent[p]) {
			S.expanded.add(p);
			S.hitPath.add(p);
		}
	}

	hotBtn.addEventListener('click', function () {
		S.arm.forEach(function (n) { S.expanded.add(n); });
		S.tab = 'tree';
		render();
	});

	/*
	 * On the flat table, the next row whose name matches: drawn, if it
	 * was past the rows shown, and scrolled to.  Returns whether there
	 * was one.
	 */
	function findNextRow(q) {
		const rows = flatRows();
		for (let k = 0; k < rows.length; k++) {
			const j = (S.flatFrom + k) % rows.length, c = rows[j];
			if (ccFull(c).toLowerCase().indexOf(q) < 0)
				continue;
			S.flatFrom = j + 1;
			/* Past the rows drawn: draw those around it, not every
			 * row down to it. */
			if (j < S.flatStart || j >= S.flatStart + S.flatLimit)
				S.flatStart = Math.max(0, j - 100);
			render(rows);
			const tr = views.flat.querySelector('tr[data-cc="' + c + '"]');
			if (tr) {
				tr.classList.add('current');
				if (tr.scrollIntoView)
					tr.scrollIntoView({ block: 'center' });
			}
			return true;
		}
		return false;
	}

	function findNext() {
		const q = searchIn.value.toLowerCase(), fresh = q !== S.search;
		/* A new query starts from the top, not from the last hit. */
		if (fresh)
			S.flatFrom = S.searchFrom = 0;
		S.search = q;
		if (!q) {
			S.hit = -1;
			render();
			return;
		}
		if (S.tab === 'flame') {
			findNextFrame(q, fresh);
			return;
		}
		if (S.tab === 'flat') {
			if (!findNextRow(q))
				status.textContent = notFound(q);
			return;
		}
		const t = S.tree, order = S.a.order;
		for (let k = 0; k < t.n; k++) {
			const j = (S.searchFrom + k) % t.n, i = order[j];
			if (ccFull(t.cc[i]).toLowerCase().indexOf(q) >= 0) {
				S.hit = i;
				S.searchFrom = j + 1;
				expandPath(i);
				if (S.tab !== 'flat')
					S.tab = 'tree';
				render();
				const row = views.tree.querySelector('.row[data-node="' + i + '"]');
				if (row && row.scrollIntoView)
					row.scrollIntoView({ block: 'center' });
				return;
			}
		}
		S.hit = -1;
		render();
		status.textContent = notFound(q);
	}

	/*
	 * On the flame graph, every frame that matches drawn in colour, the
	 * others in grey, and how many said; the keys' focus moved to the
	 * next drawn frame that matches, the graph staying shown.
	 */
	function findNextFrame(q, fresh) {
		if (fresh || !F || !F.found)
			renderFlame();
		if (!F)
			return;
		if (!F.found.count) {
			status.textContent = notFound(q);
			return;
		}
		const t = S.tree, order = S.a.order;
		for (let k = 0; k < t.n; k++) {
			const j = (S.searchFrom + k) % t.n, i = order[j];
			if (F.found.match[t.cc[i]] && F.drawn.has(i)) {
				S.searchFrom = j + 1;
				moveFlameFocus(i);
				seeFrame(i);
				return;
			}
		}
	}

	/* What a search found nothing of is: a name of the profile not in
	 * this view (de-selected or pruned), or of no cost centre. */
	function notFound(q) {
		let elsewhere = false;
		for (let c = 0; c < NCC && !elsewhere; c++)
			elsewhere = baseSeen[c] && ccFull(c).toLowerCase().indexOf(q) >= 0;
		return elsewhere ? 'nothing in this view matches \u201c' + searchIn.value +
		    '\u201d: the cost centres that do are de-selected or pruned' :
		    'no cost centre matches \u201c' + searchIn.value + '\u201d';
	}
	searchBtn.addEventListener('click', findNext);
	searchIn.addEventListener('keydown', function (e) { if (e.key === 'Enter') findNext(); });

	/* ---- the flat / inherited table ---- */

	const columns = [
		{ key: 'sel', title: 'sel', left: true },
		{ key: 'name', title: 'cost centre', left: true },
		{ key: 'module', title: 'module', left: true },
		/* As ccs-flat has it: only where names collide. */
		...(anyCollides ? [{ key: 'src', title: 'src', left: true }] : []),
		{ key: 'self', title: 'self' },
		{ key: 'selfpct', title: '%self' },
		{ key: 'inh', title: 'inherited' },
		{ key: 'inhpct', title: '%inh' }
	];
	if (entriesMetric >= 0)
		columns.push({ key: 'entries', title: 'entries' });

	/* The rows of the flat table, in its order. */
	function flatRows() {
		const a = S.a, m = S.metric;
		const rows = [];
		for (let c = 0; c < NCC; c++) {
			/* A synthetic root shows only when cost is left
			 * on it (all below it de-selected), as in ccs-flat. */
			if (!baseSeen[c] || (isSynthetic(c) && !(S.sel[c] && a.self[m][c] !== 0)))
				continue;
			if (S.sel[c] && !a.seen[c])
				continue;	/* pruned away */
			rows.push(c);
		}
		const key = S.sortCol, dir = S.sortDesc ? -1 : 1;
		/* A row de-selected by its checkbox sorts by the values it
		 * had, so that it stays where it was, to be checked again;
		 * others de-selected go last. */
		function off(c, k, mm) {
			const v = S.kept.get(c);
			return v ? v[k][mm] : -Infinity;
		}
		function val(c) {
			switch (key) {
			case 'sel': return S.sel[c];
			case 'name': return ccLabel(c);
			case 'module': return ccModule(c);
			case 'src': return ccSrc(c);
			case 'self': case 'selfpct': return S.sel[c] ? a.self[m][c] : off(c, 'self', m);
			case 'inh': case 'inhpct': return S.sel[c] ? a.inh[m][c] : off(c, 'inh', m);
			case 'entries': return S.sel[c] ? a.self[entriesMetric][c] : off(c, 'self', entriesMetric);
			}
			return 0;
		}
		rows.sort(function (x, y) {
			const p = val(x), q = val(y);
			if (p < q) return -dir;
			if (p > q) return dir;
			return ccName(x) < ccName(y) ? -1 : ccName(x) > ccName(y) ? 1 : 0;
		});
		return rows;
	}

	function renderFlat(known) {
		const v = views.flat, a = S.a, m = S.metric, tot = total();
		v.textContent = '';
		const rows = known || flatRows();
		const table = el('table', anyCollides ? 'flat src' : 'flat');
		const thead = el('thead'), hr = el('tr');
		columns.forEach(function (col) {
			const th = el('th', (col.left ? 'l ' : '') + (S.sortCol === col.key ? 'sorted' : ''),
			    col.title + (S.sortCol === col.key ? (S.sortDesc ? ' \u25be' : ' \u25b4') : ''));
			th.dataset.col = col.key;
			th.title = 'sort by this column (Enter)';
			if (S.sortCol === col.key)
				th.setAttribute('aria-sort', S.sortDesc ? 'descending' : 'ascending');
			activatable(th, function () {
				if (S.sortCol === col.key)
					S.sortDesc = !S.sortDesc;
				else {
					S.sortCol = col.key;
					S.sortDesc = !col.left;
				}
				S.flatStart = 0;
				renderFlat();
				refocus('#view-flat th[data-col="' + col.key + '"]');
			});
			hr.append(th);
		});
		thead.append(hr);
		const tbody = el('tbody');
		const q = S.search;
		/* A window of the rows: from the first, or around a row
		 * found far down (findNextRow()). */
		const from = Math.min(S.flatStart, rows.length);
		const shown = Math.min(rows.length, from + S.flatLimit);
		if (from > 0) {
			const first = el('div', 'more', 'rows ' + (from + 1) + ' to ' + shown + ' of ' +
			    rows.length + ': show from the first');
			activatable(first, function () {
				S.flatStart = 0;
				renderFlat();
			});
			v.append(first);
		}
		for (let k = from; k < shown; k++) {
			const c = rows[k], tr = el('tr', S.sel[c] ? '' : 'off');
			tr.dataset.cc = String(c);
			tr.dataset.name = ccFull(c);
			if (q && ccFull(c).toLowerCase().indexOf(q) >= 0)
				tr.classList.add('hit');
			const box = el('input');
			box.type = 'checkbox';
			box.checked = !!S.sel[c];
			box.disabled = c === base.cc[0];
			box.title = 'select or de-select this cost centre';
			box.addEventListener('change', function () {
				S.override.set(c, box.checked);
				if (box.checked)
					S.kept.delete(c);
				else
					S.kept.set(c, { self: a.self.map(function (x) { return x[c]; }),
					    inh: a.inh.map(function (x) { return x[c]; }) });
				recompute();
				/* Its row drawn, wherever it now sorts. */
				const mine = '#view-flat tr[data-cc="' + c + '"] input';
				if (S.tab === 'flat' && !document.querySelector(mine)) {
					const all = flatRows(), j = all.indexOf(c);
					if (j >= 0) {
						S.flatStart = Math.max(0, j - 100);
						render(all);
					}
				}
				refocus(mine);
			});
			const td0 = el('td', 'l');
			td0.append(box);
			const name = el('td', 'l');
			const link = labelEl(isSynthetic(c) ? '' : 'link', c);
			if (!isSynthetic(c)) {
				link.title = 'show the callers of ' + ccName(c);
				activatable(link, function () {
					showCallers(c);
					S.tab = 'callers';
					render();
				});
			}
			name.append(link);
			tr.append(td0, name, el('td', 'l module', ccModule(c)));
			if (anyCollides)
				tr.append(el('td', 'l src', ccSrc(c)));
			const cells = S.sel[c] ? [a.self[m][c], pct(a.self[m][c], tot), a.inh[m][c],
			    pct(a.inh[m][c], tot)] : ['\u2013', '', '\u2013', ''];
			['self', 'selfpct', 'inh', 'inhpct'].forEach(function (k2, j) {
				const td = el('td', k2, typeof cells[j] === 'number' ? fmt(cells[j]) : cells[j]);
				if (typeof cells[j] === 'number')
					td.dataset.v = String(cells[j]);
				tr.append(td);
			});
			if (entriesMetric >= 0)
				tr.append(el('td', 'entries', S.sel[c] ? fmt(a.self[entriesMetric][c]) : '\u2013'));
			tbody.append(tr);
		}
		table.append(thead, tbody);
		/* In a box of its own, which scrolls sideways in a window too
		 * narrow for it, where the page would. */
		const scroller = el('div', 'flatbox');
		scroller.append(table);
		v.append(scroller);
		if (shown < rows.length || from > 0) {
			const more = el('div', 'more', 'show all ' + rows.length + ' cost centres');
			activatable(more, function () {
				S.flatStart = 0;
				S.flatLimit = rows.length;
				renderFlat();
			});
			v.append(more);
		}
	}

	/* ---- callers ---- */

	/*
	 * The selected cost centre of largest self cost in the view (the
	 * flat table's first row), the first by name of equals; -1 if none
	 * has a positive one.
	 */
	function largestSelf() {
		const a = S.a, m = S.metric;
		let best = -1;
		for (let c = 0; c < NCC; c++) {
			if (!S.sel[c] || !a.seen[c] || isSynthetic(c) || !(a.self[m][c] > 0))
				continue;
			if (best < 0 || a.self[m][c] > a.self[m][best] ||
			    (a.self[m][c] === a.self[m][best] && ccName(c) < ccName(best)))
				best = c;
		}
		return best;
	}

	function renderCallers() {
		const v = views.callers;
		v.textContent = '';
		if (S.callersOf < 0) {
			v.append(el('p', 'note', 'Click a cost centre in the flat table to see its callers: ' +
			    'every calling context of its outermost occurrences, merged into one tree.'));
			/* Asked for, not made on opening: the callers of a
			 * cost centre on millions of stacks take a while. */
			const c = largestSelf();
			if (c >= 0) {
				const p = el('p', 'note', 'Or see those of ');
				const link = el('span', 'link', ccName(c));
				link.id = 'callers-largest';
				link.title = 'show the callers of ' + ccName(c);
				activatable(link, function () {
					showCallers(c);
					render();
					refocus('#tab-callers');
				});
				p.append(link, ', the largest self cost in this view.');
				v.append(p);
			}
			return;
		}
		if (!S.callersTree) {
			v.append(el('p', 'note', ccName(S.callersOf) + ' does not occur in this view.'));
			return;
		}
		const t = S.callersTree, a = S.callersA;
		let contexts = 0;
		for (let i = 0; i < t.n; i++)
			if (t.first[i] < 0)
				contexts++;
		v.append(el('p', 'note', 'Callers of ' + ccName(S.callersOf) + ': ' +
		    fmt(a.inc[S.metric][0]) + ' ' + D.metrics[S.metric].unit + ' in ' +
		    contexts + (contexts === 1 ? ' calling context.' : ' calling contexts.')));
		const tr = el('div', 'tree callers');
		tr.append(treeHead(S.callersOf));
		treeRows(t, a, S.callersExpanded, S.callersLimits, true, new Set(),
		    renderCallers).forEach(function (r) { tr.appendChild(r); });
		v.append(tr);
	}

	/* ---- flame graph (icicle: root on top) ---- */

	const ROW = 18;
	/*
	 * The graph as last laid out: its tree, canvas, the frames drawn (by
	 * node in drawn, by level in rows) and the colours; the arrow
	 * keys repaint two frames of it, not all of it (moveFlameFocus()).
	 * The box is as tall as the graph (H px), the canvas in it only as
	 * tall as the window (h px), kept in view by position: sticky: it
	 * shows the graph from off px down, and only the levels there are
	 * painted (paintView()), again when the page scrolls.  A browser
	 * draws no canvas taller than 32767 or 65535 device pixels; a box
	 * can be taller.
	 */
	let F = null;
	function colour(c) {
		let h = 0;
		const s = ccFull(c);
		for (let i = 0; i < s.length; i++)
			h = (h * 31 + s.charCodeAt(i)) | 0;
		const x = Math.abs(h);
		return 'hsl(' + (10 + x % 40) + ',' + (70 + x % 25) + '%,' + (55 + (x >> 8) % 15) + '%)';
	}
	/* The canvas's colours, from the style sheet: light or dark. */
	function flamePalette() {
		const s = getComputedStyle(document.documentElement);
		const v = function (k, d) { return s.getPropertyValue(k).trim() || d; };
		return { fg: v('--flame-fg', '#1d2433'), arm: v('--flame-arm', '#c2410c'),
		    armFg: v('--flame-arm-fg', '#fff'), focus: v('--flame-focus', '#1d2433'),
		    dim: v('--flame-dim', '#e4e7ec'), dimFg: v('--flame-dim-fg', '#4b5563') };
	}
	/*
	 * Which cost centres the search text q names (their full name
	 * contains it, as Find next has it), and on how many stacks of
	 * tree t: null for no search.
	 */
	function searchMatches(t, q) {
		if (!q)
			return null;
		const match = new Uint8Array(NCC);
		for (let c = 0; c < NCC; c++)
			match[c] = ccFull(c).toLowerCase().indexOf(q) >= 0 ? 1 : 0;
		let count = 0;
		for (let i = 0; i < t.n; i++)
			count += match[t.cc[i]];
		return { match: match, count: count };
	}
	/* Frame r, the keyboard's focus ring on it when focused; in grey
	 * when a search is on that it does not match. */
	function paintFrame(r, focused) {
		const g = F.g, P = F.pal, c = S.tree.cc[r.n];
		const dim = F.found && !F.found.match[c], arm = !dim && S.armSet.has(r.n);
		g.fillStyle = dim ? P.dim : arm ? P.arm : colour(c);
		g.fillRect(r.x, r.y, Math.max(r.w - 1, 0.5), ROW - 1);
		if (r.w > 30) {
			g.fillStyle = dim ? P.dimFg : arm ? P.armFg : P.fg;
			g.save();
			g.beginPath();
			g.rect(r.x, r.y, r.w - 2, ROW);
			g.clip();
			g.fillText(ccLabel(c) || '(empty label)', r.x + 3, r.y + ROW / 2);
			g.restore();
		}
		if (focused) {
			g.strokeStyle = P.focus;
			g.lineWidth = 2;
			g.strokeRect(r.x + 1, r.y + 1, Math.max(r.w - 3, 1), ROW - 3);
		}
	}
	/* The frame under the keys: the one last moved to, else the root. */
	function flameFocus() {
		return F.drawn.has(S.flameFocus) ? S.flameFocus : F.root;
	}
	/*
	 * Frame n painted again, as a full drawing paints it: its place
	 * cleared (with a pixel more each side, where a focus ring reaches
	 * past a narrow frame) and the frames of its level there drawn.
	 */
	function repaintFrame(n) {
		const r = F.drawn.get(n), g = F.g, focus = flameFocus();
		if (r.y + ROW <= F.off || r.y >= F.off + F.h)
			return;
		const x0 = Math.floor(r.x) - 1, x1 = Math.ceil(r.x + Math.max(r.w, 4)) + 1;
		g.save();
		g.beginPath();
		g.rect(x0, r.y, x1 - x0, ROW);
		g.clip();
		g.clearRect(x0, r.y, x1 - x0, ROW);
		F.rows[r.y / ROW].forEach(function (q) {
			if (q.x < x1 && q.x + q.w > x0)
				paintFrame(q, q.n === focus);
		});
		g.restore();
	}
	/* The keys' focus moved to frame f: the old frame and the new one
	 * painted again, and f said below the graph; no new layout. */
	function moveFlameFocus(f) {
		const old = flameFocus();
		S.flameFocus = f;
		/* Where the canvas shows another part, all of it painted. */
		if (old !== f && !paintView()) {
			repaintFrame(old);
			repaintFrame(f);
		}
		F.said.textContent = frameText(f);
	}
	/* The canvas as wide as the graph and as tall as the window, or
	 * the graph where that is less, in device pixels; its pen set. */
	function sizeCanvas() {
		const c = F.canvas, dpr = window.devicePixelRatio || 1;
		const h = Math.min(F.H, Math.max(ROW, window.innerHeight || 0));
		/* The same size: the same pixels, cleared when painted. */
		if (c.width !== (F.W * dpr) >>> 0 || c.height !== (h * dpr) >>> 0) {
			c.width = F.W * dpr;
			c.height = h * dpr;
		}
		c.style.height = h + 'px';
		F.g.font = '11px system-ui, sans-serif';
		F.g.textBaseline = 'middle';
		F.h = h;
		F.dpr = dpr;
		F.off = -1;
	}
	/* Where the graph's top is in the window, in px. */
	function graphTop() {
		return F.box.getBoundingClientRect().top + F.canvas.clientTop;
	}
	/*
	 * The levels the canvas shows painted, where sticky has moved it
	 * since they last were (or it was sized): true then, else false.
	 * Its offset on the graph in whole device pixels, so that frames
	 * keep sharp edges.
	 */
	function paintView() {
		const dpr = F.dpr, b = F.box.getBoundingClientRect().top;
		const off = Math.max(0, Math.min(F.H - F.h,
		    Math.round((F.canvas.getBoundingClientRect().top - b) * dpr) / dpr));
		if (off === F.off)
			return false;
		F.off = off;
		const g = F.g, focus = flameFocus();
		g.setTransform(dpr, 0, 0, dpr, 0, -off * dpr);
		g.clearRect(0, off, F.W, F.h);
		const k1 = Math.min(F.rows.length, Math.ceil((off + F.h) / ROW));
		let painted = 0;
		for (let k = Math.floor(off / ROW); k < k1; k++) {
			F.rows[k].forEach(function (r) { paintFrame(r, r.n === focus); });
			painted += F.rows[k].length;
		}
		/* For the tests: how many frames the last full painting drew. */
		F.canvas.dataset.painted = String(painted);
		return true;
	}
	/*
	 * The graph's canvas: one, drawn on again at each layout, so that
	 * a zoom does not make its pixels anew; what it shows is F's.
	 */
	const flameCanvas = el('canvas');
	flameCanvas.tabIndex = 0;
	flameCanvas.setAttribute('role', 'img');
	flameCanvas.setAttribute('aria-label', 'flame graph: arrow keys move between frames');
	/* The frame under the pointer: on the graph, not the canvas,
	 * whose part of the graph changes as the page scrolls. */
	function frameAt(ev) {
		const c = flameCanvas, b = c.getBoundingClientRect();
		const x = (ev.clientX - b.left - c.clientLeft) * F.W / (c.clientWidth || F.W);
		const y = ev.clientY - graphTop(), row = y >= 0 ? F.rows[Math.floor(y / ROW)] : null;
		for (let k = row ? row.length : 0; k-- > 0;) {
			const r = row[k];
			if (x >= r.x && x < r.x + r.w)
				return r.n;
		}
		return -1;
	}
	flameCanvas.addEventListener('mousemove', function (ev) {
		const n = F ? frameAt(ev) : -1;
		if (n < 0) {
			tip.style.display = 'none';
			return;
		}
		tip.textContent = frameText(n);
		tip.style.display = 'block';
		/* Inside the window, however near its edges: above
		 * the pointer when there is no room below it. */
		const de = document.documentElement;
		tip.style.left = Math.max(0, Math.min(ev.clientX + 12,
		    de.clientWidth - tip.offsetWidth - 4)) + 'px';
		let y = ev.clientY + 12;
		if (y + tip.offsetHeight + 4 > de.clientHeight)
			y = ev.clientY - 12 - tip.offsetHeight;
		tip.style.top = Math.max(0, Math.min(y, de.clientHeight - tip.offsetHeight - 4)) + 'px';
	});
	flameCanvas.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
	flameCanvas.addEventListener('click', function (ev) {
		const n = F ? frameAt(ev) : -1;
		if (n < 0)
			return;
		S.flameRoot = n === S.flameRoot ? Math.max(F.t.parent[n], 0) : n;
		S.flameFocus = S.flameRoot;
		renderFlame();
	});
	/* The drawn children of n, left to right. */
	function flameKids(n) {
		const out = [];
		for (let c = F.t.first[n]; c >= 0; c = F.t.next[c])
			if (F.drawn.has(c))
				out.push(c);
		return out;
	}
	flameCanvas.addEventListener('keydown', function (ev) {
		if (!F)
			return;
		const t = F.t, root = F.root, drawn = F.drawn;
		let f = flameFocus(), zoom = -1;
		if (ev.key === 'ArrowUp' && f !== root)
			f = t.parent[f];
		else if (ev.key === 'ArrowDown') {
			const k = flameKids(f);
			if (k.length)
				f = k.reduce(function (x, y) { return drawn.get(y).w > drawn.get(x).w ? y : x; });
		} else if ((ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') && f !== root) {
			const k = flameKids(t.parent[f]), i = k.indexOf(f) + (ev.key === 'ArrowLeft' ? -1 : 1);
			if (i >= 0 && i < k.length)
				f = k[i];
		} else if (ev.key === 'Enter' || ev.key === ' ')
			zoom = f === root ? Math.max(t.parent[root], 0) : f;
		else if (ev.key === 'Escape')
			zoom = Math.max(t.parent[root], 0);
		else
			return;
		ev.preventDefault();
		if (zoom < 0) {
			/* A move: two frames painted again, not the graph. */
			moveFlameFocus(f);
			seeFrame(f);
			return;
		}
		S.flameRoot = S.flameFocus = zoom;
		renderFlame();
		refocus('#view-flame canvas');
		seeFrame(zoom);
	});
	function renderFlame() {
		const v = views.flame, t = S.tree, a = S.a, m = S.metric;
		/* For the tests: how many times the graph was laid out. */
		v.dataset.layouts = String(Number(v.dataset.layouts || 0) + 1);
		v.textContent = '';
		F = null;
		/* It would name a frame no longer under the pointer. */
		tip.style.display = 'none';
		v.append(el('p', 'note', 'Width is inclusive ' + D.metrics[m].name +
		    '. Click a frame to zoom in, the top frame to zoom out; or, on the graph, ' +
		    'move between frames with the arrow keys, Enter to zoom in, Escape to zoom out.'));
		const found = searchMatches(t, S.search);
		if (found) {
			const p = el('p', 'note', found.count + (found.count === 1 ? ' matching frame' :
			    ' matching frames') + ' for \u201c' + S.search + '\u201d, drawn in colour, the others in grey.');
			p.id = 'flame-matches';
			v.append(p);
		}
		const box = el('div', 'flame'), canvas = flameCanvas;
		box.append(canvas);
		v.append(box);
		/* The frame the keys are on, said below the graph. */
		const said = el('p', 'note');
		said.id = 'flame-focus';
		said.setAttribute('aria-live', 'polite');
		v.append(said);
		const W = Math.max(300, v.clientWidth || 1000);
		const rects = [], rows = [];
		let maxDepth = 0;
		/*
		 * Widths: inclusive cost, or, where some costs are negative
		 * (Clean's words), the sum of the positive ones below a
		 * frame, so that children still fit in their parent.
		 */
		let inc = a.inc[m];
		if (t.own[m].some(function (x) { return x < 0; })) {
			inc = new Float64Array(t.n);
			for (let i = 0; i < t.n; i++)
				inc[i] = Math.max(t.own[m][i], 0);
			for (let k = t.n; k-- > 1;)
				inc[t.parent[a.order[k]]] += inc[a.order[k]];
			v.firstChild.textContent += ' Negative costs are left out.';
		}
		const root = S.flameRoot, rootInc = Math.max(inc[root], 0);
		/* No width to draw: a blank graph would say nothing. */
		if (!(rootInc > 0)) {
			v.textContent = '';
			const p = el('p', 'note', 'Nothing to draw: no stack in this view has any ' +
			    D.metrics[m].name + ' above zero.');
			p.id = 'flame-empty';
			v.append(p);
			return;
		}
		/* Lay out with an explicit stack: [node, x, depth]. */
		const stack = [[root, 0, 0]];
		while (stack.length) {
			const e = stack.pop(), n = e[0], w = rootInc ? W * Math.max(inc[n], 0) / rootInc : 0;
			if (w < 0.5)
				continue;
			const r = { n: n, x: e[1], y: e[2] * ROW, w: w };
			rects.push(r);
			if (e[2] > maxDepth)
				maxDepth = e[2];
			(rows[e[2]] || (rows[e[2]] = [])).push(r);
			let x = e[1];
			for (let c = t.first[n]; c >= 0; c = t.next[c]) {
				const cw = rootInc ? W * Math.max(inc[c], 0) / rootInc : 0;
				stack.push([c, x, e[2] + 1]);
				x += cw;
			}
		}
		const drawn = new Map();
		rects.forEach(function (r) { drawn.set(r.n, r); });
		F = { t: t, canvas: canvas, box: box, g: canvas.getContext('2d'), rows: rows,
		    drawn: drawn, root: root, W: W, H: (maxDepth + 1) * ROW, said: said,
		    pal: flamePalette(), found: found };
		sizeCanvas();
		/* The box as tall as the graph, and the canvas's borders. */
		box.style.height = (F.H + canvas.offsetHeight - canvas.clientHeight) + 'px';
		paintView();
		said.textContent = frameText(flameFocus());
		/* For the tests: how many frames, and how far right they reach. */
		canvas.dataset.frames = String(rects.length);
		canvas.dataset.extent = String(rects.reduce(function (x, r) {
			return Math.max(x, r.x + r.w);
		}, 0) / W);
	}

	/* Frame n of the flame graph scrolled into the window, when it is
	 * out of it, as the arrow keys reach it. */
	function seeFrame(n) {
		const r = F && F.drawn.get(n);
		if (!r)
			return;
		const top = graphTop() + r.y, h = window.innerHeight;
		if (top < 0 || top + ROW > h) {
			window.scrollBy(0, top - h / 2);
			paintView();
		}
	}

	/* A frame of the flame graph in words: name, inclusive, share, self. */
	function frameText(n) {
		const t = S.tree, a = S.a, m = S.metric;
		return ccName(t.cc[n]) + ': ' + fmt(a.inc[m][n]) + ' ' + D.metrics[m].unit + ' (' +
		    pct(a.inc[m][n], total()) + '%), self ' + fmt(t.own[m][n]);
	}

	/* ---- everything ---- */

	/* rows: the flat table's, when the caller has them (flatRows()). */
	function render(rows) {
		const m = S.metric, t = S.tree, tot = total();
		if (S.tab === 'callers')
			freshCallers();
		Array.prototype.forEach.call(tabs.children, function (b) {
			b.classList.toggle('active', b.id === 'tab-' + S.tab);
		});
		Object.keys(views).forEach(function (k) { views[k].classList.toggle('active', k === S.tab); });
		hotline.textContent = '';
		const hotPath = [];
		for (let n = S.hot; n >= 0; n = t.parent[n])
			if (!(D.ccs[t.cc[n]][3] & SYNTHETIC))
				hotPath.unshift(ccFull(t.cc[n]));
		const hp = el('span', '', 'Hot stack: ' + fmt(t.own[m][S.hot]) + ' ' + D.metrics[m].unit +
		    ' (' + pct(t.own[m][S.hot], tot) + '% of ' + fmt(tot) + ') ');
		const code = el('code', '', '<' + hotPath.join(';') + '>');
		code.id = 'hot-stack';
		hotline.append(hp, code);
		let text = t.n + ' stacks \u00b7 total ' + fmt(tot) + ' ' + D.metrics[m].unit;
		if (D.metrics[m].kind === 'count')
			text += ' (a count metric)';
		if (D.metrics[m].approximate)
			text += ' (approximate: from rounded percentages)';
		if (D.metrics[m].compensated)
			text += ' (compensated for profiling overhead)';
		const off = [];
		for (let c = 0; c < NCC; c++)
			if (baseSeen[c] && !S.sel[c])
				off.push(c);
		if (off.length)
			text += ' \u00b7 ' + off.length + (off.length === 1 ? ' cost centre' :
			    ' cost centres') + ' de-selected';
		if (S.unmatched.length)
			text += ' \u00b7 no cost centre matches ' + S.unmatched.join(', ');
		/* In the words of ccs-prune -v. */
		if (S.report)
			text += ' \u00b7 ' + S.report.stacks + (S.report.stacks === 1 ? ' subtree' : ' subtrees') +
			    ' pruned, ' + fmt(S.report.folded[m]) + ' ' + D.metrics[m].unit +
			    (isCount[m] ? ' dropped (counts do not fold)' : ' folded into parents');
		/* What the writer did first: ccs2html --max-stacks. */
		if (typeof D.note === 'string' && D.note)
			text += ' \u00b7 ' + D.note;
		if (S.error)
			text = S.error + ' ' + text;
		status.textContent = text;
		if (S.tab === 'tree')
			renderTree();
		else if (S.tab === 'flat')
			renderFlat(rows);
		else if (S.tab === 'flame')
			renderFlame();
		else
			renderCallers();
	}

	/* fn run at the next frame, once however often the event comes. */
	function onceAFrame(fn) {
		let pending = 0;
		return function () {
			if (pending)
				return;
			pending = requestAnimationFrame(function () {
				pending = 0;
				fn();
			});
		};
	}
	/* The flame graph is drawn for the width it has: again when that
	 * changes, or its labels would be stretched or squeezed; its
	 * canvas made as tall as the window again when that changes. */
	window.addEventListener('resize', onceAFrame(function () {
		if (S.tab !== 'flame' || !F)
			return;
		const c = F.canvas;
		if (c.clientWidth && Math.abs(c.width / (window.devicePixelRatio || 1) - c.clientWidth) > 1)
			renderFlame();
		else {
			if (F.h !== Math.min(F.H, Math.max(ROW, window.innerHeight || 0)))
				sizeCanvas();
			paintView();
		}
	}));
	/* The part of the flame graph scrolled to painted, once a frame. */
	window.addEventListener('scroll', onceAFrame(function () {
		if (S.tab === 'flame' && F)
			paintView();
	}), { passive: true });

	/* The canvas takes its colours from the style sheet when drawn:
	 * drawn again when the browser turns light or dark. */
	if (window.matchMedia)
		window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', function () {
			if (S.tab === 'flame')
				renderFlame();
		});

	recompute();
	document.body.dataset.ready = 'true';
})();
