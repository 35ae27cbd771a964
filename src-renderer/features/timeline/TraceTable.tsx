/**
 * The processing trace of the last full generation: per turn (per part, where tuned words or a
 * break split a turn: 2.1, 2.2…) the applied rate, pitch, gain and break, and the whole
 * recording's loudness before and after normalisation.
 */
import type { ProcessingTrace, TurnTrace } from '../../../src-shared/synthesis';
import { useStudioStore } from '../../store/store';
import { voiceDisplayName } from '../../components/voice-names';
import { ColumnHeads } from '../../components/ColumnHeads';

function fmt(value: number | null, unit: string, digits = 1): string {
  return value === null || !Number.isFinite(value) ? '—' : `${value.toFixed(digits)} ${unit}`;
}

/** "2" for a turn made in one part, "2.1", "2.2"… for the parts of one made in several. */
function turnLabel(trace: ProcessingTrace, t: TurnTrace): string {
  const numParts = trace.turns.filter((u) => u.turnIndex === t.turnIndex).length;
  return numParts > 1 ? `${t.turnIndex + 1}.${(t.partIndex ?? 0) + 1}` : String(t.turnIndex + 1);
}

export function TraceTable({ trace }: { trace: ProcessingTrace }) {
  const savedVoices = useStudioStore((s) => s.savedVoices);
  return (
    <div className="trace" data-testid="trace">
      <h3>Processing trace</h3>
      <table>
        <caption className="sr-only">Applied processing per turn</caption>
        <ColumnHeads columns={['Turn', 'Voice', 'Language', 'Rate', 'Pitch', 'Gain', 'Break before', 'Duration']} />
        <tbody>
          {trace.turns.map((t) => (
            <tr key={`${t.turnIndex}.${t.partIndex ?? 0}`}>
              <td>{turnLabel(trace, t)}</td>
              <td>{voiceDisplayName(t.voice, savedVoices)}</td>
              <td>{t.language}</td>
              <td>×{t.rate.toFixed(2)}</td>
              <td>{fmt(t.pitchSemitones, 'st')}</td>
              <td>{fmt(t.gainDb, 'dB')}</td>
              <td>{t.breakBeforeMs} ms</td>
              <td>{(t.durationMs / 1000).toFixed(2)} s</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        Loudness before {fmt(trace.loudnessMeasuredLufs, 'LUFS')} → after {fmt(trace.loudnessFinalLufs, 'LUFS')}, true peak {fmt(trace.truePeakFinalDbtp, 'dBTP')}
      </p>
    </div>
  );
}
