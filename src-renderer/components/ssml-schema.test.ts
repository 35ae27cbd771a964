// The SSML editor completes every say-as value the parser reads, from the parser's own list.
import { describe, expect, it } from 'vitest';
import { SAY_AS_ALL } from '../../src-shared/ssml-say-as';
import { ssmlElements } from './ssml-schema';

describe('SSML editor completions', () => {
  it('offers every interpret-as value the parser accepts', () => {
    const sayAs = ssmlElements(['ryan']).find((e) => e.name === 'say-as');
    const attr = sayAs?.attributes?.find((a) => typeof a !== 'string' && a.name === 'interpret-as');
    const values = attr && typeof attr !== 'string' ? attr.values : [];
    expect(new Set(values)).toEqual(new Set(SAY_AS_ALL));
    for (const v of ['currency', 'duration', 'address', 'unit', 'name', 'verbatim']) expect(values).toContain(v);
  });
});
