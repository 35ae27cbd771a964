/**
 * The one waveform player the Timeline has mounted, so keyboard shortcuts (Space) reach it.
 */
import type { WaveformHandle } from '../../components/Waveform';

export const timelinePlayer: { current: WaveformHandle | null } = { current: null };
