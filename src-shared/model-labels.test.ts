// Checkpoint sizes and types read as people write them; unknown sizes pass through.
import { describe, expect, it } from 'vitest';
import { modelSizeLabel, modelTypeLabel } from './model-labels';

describe('modelSizeLabel', () => {
  it("reads '0b6' as 0.6B and '1b7' as 1.7B, and leaves other values as they are", () => {
    expect(modelSizeLabel('0b6')).toBe('0.6B');
    expect(modelSizeLabel('1B7')).toBe('1.7B');
    expect(modelSizeLabel('12b0')).toBe('12.0B');
    expect(modelSizeLabel('tiny')).toBe('tiny');
    expect(modelSizeLabel('')).toBe('');
  });

  it('names the type, with the size where known', () => {
    expect(modelTypeLabel('custom_voice', '0b6')).toBe('CustomVoice 0.6B');
    expect(modelTypeLabel('voice_design', '1b7')).toBe('VoiceDesign 1.7B');
    expect(modelTypeLabel('base')).toBe('Base');
  });
});
