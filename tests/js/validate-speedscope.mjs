// Validate a speedscope file against the schema that the npm speedscope
// package ships (dist/release/file-format-schema.json), with Ajv, and
// check what the schema cannot say: every frame index exists, and the
// events of an evented profile nest, close the frame they opened and
// never go back in time, as speedscope's importer requires.
// Usage:
//   node validate-speedscope.mjs FILE
//       exit 0 valid, 1 invalid;
//   node validate-speedscope.mjs --folded N FILE
//       also print profile N's stacks as folded text ("f1;f2 weight",
//       frame names, in the order first reached), what speedscope would
//       show, so that a test can compare them with ccs-convert -t folded.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv from 'ajv';

const args = process.argv.slice(2);
const folded = args[0] === '--folded' ? Number(args.splice(0, 2)[1]) : null;
const file = args[0];
const require = createRequire(import.meta.url);
const schemaPath = require.resolve('speedscope/dist/release/file-format-schema.json');
const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
const doc = JSON.parse(readFileSync(file, 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(schema);
if (!validate(doc)) {
	for (const e of validate.errors.slice(0, 20))
		console.error(`${file}: ${e.instancePath || '/'}: ${e.message}`);
	process.exit(1);
}

function fail(p, msg) {
	console.error(`${file}: ${p.name}: ${msg}`);
	process.exit(1);
}

const nframes = doc.shared.frames.length;
function checkFrame(p, f) {
	if (!Number.isInteger(f) || f < 0 || f >= nframes)
		fail(p, `frame ${f} out of range`);
}

// The stacks of a profile and their weights, in the order first reached,
// when they are wanted: a key for each stack takes as long as the stack.
function stacksOf(p, wanted) {
	const stacks = new Map();
	const add = (stack, w) => {
		if (w === 0 || !wanted)
			return;
		const k = stack.join(',');
		stacks.set(k, (stacks.get(k) || 0) + w);
	};
	if (p.type === 'sampled') {
		if (p.samples.length !== p.weights.length)
			fail(p, 'samples and weights differ in length');
		p.samples.forEach((s, i) => {
			s.forEach((f) => checkFrame(p, f));
			add(s, p.weights[i]);
		});
		return stacks;
	}
	const open = [];
	let at = p.startValue;
	for (const [i, e] of p.events.entries()) {
		checkFrame(p, e.frame);
		if (e.at < at)
			fail(p, `event ${i} goes back from ${at} to ${e.at}`);
		if (open.length > 0)
			add(open, e.at - at);
		else if (e.at > at)
			fail(p, `event ${i}: time passes with no frame open`);
		at = e.at;
		if (e.type === 'O')
			open.push(e.frame);
		else if (open.pop() !== e.frame)
			fail(p, `event ${i} closes frame ${e.frame}, which is not the innermost open`);
	}
	if (open.length > 0)
		fail(p, `${open.length} frames left open`);
	if (at > p.endValue)
		fail(p, `events run to ${at}, past the end value ${p.endValue}`);
	return stacks;
}

const all = doc.profiles.map((p, i) => stacksOf(p, i === folded));
if (folded !== null) {
	const names = doc.shared.frames.map((f) => f.name);
	for (const [k, w] of all[folded])
		console.log(`${k.split(',').map((f) => names[f]).join(';')} ${w}`);
	process.exit(0);
}
console.log(`${file}: valid speedscope file, ${doc.profiles.length} profiles`);
