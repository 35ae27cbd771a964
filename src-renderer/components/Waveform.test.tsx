// @vitest-environment jsdom
// The waveform from the keyboard, over a stand-in for wavesurfer.js (jsdom has no media or canvas):
// it is a focusable, labelled slider over the clip's time; arrows seek (Shift by more), Home and
// End go to the ends, and Space plays or pauses once, not a second time through the studio's own
// Space shortcut on the window.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';

const player = vi.hoisted(() => ({ timeS: 0, durationS: 10, numPlayPause: 0 }));

vi.mock('wavesurfer.js', () => ({
  default: {
    create: () => ({
      on: () => () => {},
      loadBlob: async () => {},
      zoom: () => {},
      destroy: () => {},
      isPlaying: () => false,
      getDuration: () => player.durationS,
      getCurrentTime: () => player.timeS,
      setTime: (t: number) => void (player.timeS = t),
      playPause: async () => void player.numPlayPause++,
    }),
  },
}));
vi.mock('wavesurfer.js/dist/plugins/regions.esm.js', () => ({
  default: { create: () => ({ enableDragSelection: () => {}, on: () => () => {}, getRegions: () => [], clearRegions: () => {}, addRegion: () => ({ element: null }) }) },
}));
vi.mock('wavesurfer.js/dist/plugins/timeline.esm.js', () => ({ default: { create: () => ({}) } }));

const { Waveform } = await import('./Waveform');

describe('Waveform from the keyboard', () => {
  afterEach(cleanup);

  it('is a focusable, labelled slider: arrows seek, Home and End go to the ends, Space plays or pauses once', async () => {
    player.timeS = 0;
    player.numPlayPause = 0;
    let windowSpaces = 0;
    const onWindowKey = (e: KeyboardEvent) => void (e.key === ' ' && windowSpaces++);
    window.addEventListener('keydown', onWindowKey);
    // 10 s at 1 kHz, two turns.
    render(<Waveform pcm={new Float32Array(10_000)} sampleRateHz={1000} regions={[{ id: 'a', startS: 0, endS: 4, label: 'Turn 1' }, { id: 'b', startS: 5, endS: 10, label: 'Turn 2' }]} markers={[]} zoomPxPerS={100} />);
    const slider = screen.getByRole('slider', { name: /Waveform, 2 turns/ });
    expect(slider.tabIndex).toBe(0);
    expect(slider.getAttribute('aria-valuemax')).toBe('10');
    await waitFor(() => expect(slider.getAttribute('aria-valuetext')).toBe('0.00 s of 10.00 s'));
    slider.focus();
    expect(document.activeElement).toBe(slider);

    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(player.timeS).toBe(1);
    fireEvent.keyDown(slider, { key: 'ArrowRight', shiftKey: true });
    expect(player.timeS).toBe(6);
    fireEvent.keyDown(slider, { key: 'ArrowLeft' });
    expect(player.timeS).toBe(5);
    fireEvent.keyDown(slider, { key: 'End' });
    expect(player.timeS).toBe(10);
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(player.timeS).toBe(10); // not past the end
    fireEvent.keyDown(slider, { key: 'Home' });
    expect(player.timeS).toBe(0);

    fireEvent.keyDown(slider, { key: ' ' });
    expect(player.numPlayPause).toBe(1);
    expect(windowSpaces).toBe(0);
    window.removeEventListener('keydown', onWindowKey);
  });

  it('tells the transport it stopped at 0 s when new audio replaces what was playing', async () => {
    player.timeS = 0;
    const onPlayingChange = vi.fn();
    const onTime = vi.fn();
    const props = { sampleRateHz: 24_000, regions: [], markers: [], zoomPxPerS: 100, onPlayingChange, onTime };
    const { rerender } = render(<Waveform {...props} pcm={new Float32Array(2400)} />);
    onPlayingChange.mockClear();
    onTime.mockClear();
    rerender(<Waveform {...props} pcm={new Float32Array(4800)} />);
    await waitFor(() => expect(onTime).toHaveBeenLastCalledWith(0));
    expect(onPlayingChange).toHaveBeenCalled();
    expect(onPlayingChange).toHaveBeenLastCalledWith(false);
  });
});
