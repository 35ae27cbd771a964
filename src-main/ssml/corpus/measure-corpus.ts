/**
 * Reads the vendor corpus the way requests do and prints how many documents each reading accepts
 * and the mean parse time per document. Run: npx tsx src-main/ssml/corpus/measure-corpus.ts
 * A measurement, not a test: numbers go to docs/benchmarks.md.
 */
import { parseSsml } from '../parse-ssml';
import { corpusOptions } from './corpus-harness';
import { VENDOR_DOCUMENTS } from './vendor-documents';

const NUM_ROUNDS = 20;

function accepts(ssml: string, options: ReturnType<typeof corpusOptions>): boolean {
  try {
    parseSsml(ssml, options);
    return true;
  } catch {
    return false;
  }
}

const count = (f: (d: (typeof VENDOR_DOCUMENTS)[number]) => boolean) => VENDOR_DOCUMENTS.filter(f).length;
console.log(`documents: ${VENDOR_DOCUMENTS.length}`);
console.log(`strict, auto dialect:    ${count((d) => accepts(d.ssml, corpusOptions(false, 'auto')))}`);
console.log(`strict, vendor dialect:  ${count((d) => accepts(d.ssml, corpusOptions(false, d.dialect)))}`);
console.log(`lenient, vendor dialect: ${count((d) => accepts(d.ssml, corpusOptions(true, d.dialect)))}`);
const options = corpusOptions(false, 'auto');
const startedMs = performance.now();
for (let round = 0; round < NUM_ROUNDS; round++) for (const d of VENDOR_DOCUMENTS) accepts(d.ssml, options);
const meanUs = ((performance.now() - startedMs) / (NUM_ROUNDS * VENDOR_DOCUMENTS.length)) * 1000;
console.log(`mean parse time, strict auto: ${meanUs.toFixed(0)} µs per document (${NUM_ROUNDS} rounds)`);
