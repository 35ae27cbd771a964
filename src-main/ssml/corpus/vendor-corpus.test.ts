// The vendor corpus (vendor-documents.ts): every published document reads, strict and lenient, in
// its vendor's dialect into the frozen segment list and warnings (or fails with the frozen error),
// and 'auto' detects the dialect the frozen list says. Errors must be the only strict failures:
// a document that is valid in its vendor's service fails only where the model cannot follow it
// (a voice it does not have, nothing left to speak).
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../../src-shared/errors';
import { chooseDialect } from '../dialects';
import { parseSsml } from '../parse-ssml';
import { corpusOptions, describeSegments, lenientOutcome, type CorpusOutcome } from './corpus-harness';
import { VENDOR_DOCUMENTS } from './vendor-documents';

function outcome(ssml: string, lenient: boolean, dialect: (typeof VENDOR_DOCUMENTS)[number]['dialect']): CorpusOutcome {
  try {
    const r = parseSsml(ssml, corpusOptions(lenient, dialect));
    return { turns: describeSegments(r.segments), warnings: [...new Set(r.warnings.map((w) => w.element))] };
  } catch (err) {
    if (!(err instanceof StudioError)) throw err;
    return { error: err.message };
  }
}

describe('vendor corpus', () => {
  it('holds at least 40 published documents from each of the four sources', () => {
    expect(VENDOR_DOCUMENTS.length).toBeGreaterThanOrEqual(40);
    for (const vendor of ['polly/', 'azure/', 'google/', 'w3c/']) expect(VENDOR_DOCUMENTS.filter((d) => d.id.startsWith(vendor)).length).toBeGreaterThanOrEqual(8);
    expect(new Set(VENDOR_DOCUMENTS.map((d) => d.id)).size).toBe(VENDOR_DOCUMENTS.length);
    for (const d of VENDOR_DOCUMENTS) expect(d.source).toMatch(/^https:\/\//);
  });

  it.each(VENDOR_DOCUMENTS.map((d) => [d.id, d] as const))('%s reads as frozen, strict and lenient', (_id, doc) => {
    expect(outcome(doc.ssml, false, doc.dialect)).toEqual(doc.strict);
    expect(outcome(doc.ssml, true, doc.dialect)).toEqual(lenientOutcome(doc));
    expect(chooseDialect('auto', doc.ssml).dialect).toBe(doc.autoDialect);
  });

  it('accepts every document in lenient mode and all but the ones naming voices the model lacks in strict mode', () => {
    const strictFailures = VENDOR_DOCUMENTS.filter((d) => 'error' in d.strict).map((d) => d.id);
    expect(strictFailures).toEqual(['azure/custom-voice', 'google/say-as-expletive', 'w3c/voice-gender-variant']);
    expect(VENDOR_DOCUMENTS.filter((d) => 'error' in lenientOutcome(d)).map((d) => d.id)).toEqual(['google/say-as-expletive']);
  });
});
