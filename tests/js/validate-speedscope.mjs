// Validate a speedscope file against the schema that the npm speedscope
// package ships (dist/release/file-format-schema.json), with Ajv.
// Usage: node validate-speedscope.mjs FILE; exit 0 valid, 1 invalid.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv from 'ajv';

const require = createRequire(import.meta.url);
const schemaPath = require.resolve('speedscope/dist/release/file-format-schema.json');
const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
const doc = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(schema);
if (!validate(doc)) {
	for (const e of validate.errors.slice(0, 20))
		console.error(`${process.argv[2]}: ${e.instancePath || '/'}: ${e.message}`);
	process.exit(1);
}
// The schema cannot say that every frame index exists: check it here.
const nframes = doc.shared.frames.length;
for (const p of doc.profiles) {
	if (p.samples.length !== p.weights.length) {
		console.error(`${process.argv[2]}: ${p.name}: samples and weights differ in length`);
		process.exit(1);
	}
	for (const s of p.samples)
		for (const f of s)
			if (!Number.isInteger(f) || f < 0 || f >= nframes) {
				console.error(`${process.argv[2]}: ${p.name}: frame ${f} out of range`);
				process.exit(1);
			}
}
console.log(`${process.argv[2]}: valid speedscope file, ${doc.profiles.length} profiles`);
