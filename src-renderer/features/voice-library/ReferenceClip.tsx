/**
 * The clone form's comforts: hear the reference clip before it is cloned (a player over the picked
 * or recorded file, with its length), and record one from the microphone where the browser allows
 * (MediaRecorder; a clear sentence where it does not, or when access is refused), stopping by
 * itself after MAX_RECORDING_MS. The recording is handed over as a WAV file, as a picked file is.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { MAX_RECORDING_MS, microphoneErrorMessage, recordingEnvironment, recordingToWav, recordingUnavailableReason } from './mic-recording';

/** A player for the clip about to be cloned. */
export function ReferenceClipPlayer({ file }: { file: Blob & { name?: string } }) {
  const url = useMemo(() => URL.createObjectURL(file), [file]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  const [durationS, setDurationS] = useState<number | null>(null);
  return (
    <div className="inline reference-clip" data-testid="voice-clone-reference">
      <audio controls src={url} aria-label="Play the reference clip" data-testid="voice-clone-preview" onLoadedMetadata={(e) => setDurationS(Number.isFinite(e.currentTarget.duration) ? e.currentTarget.duration : null)} />
      <span className="muted">
        {file.name ?? 'clip'}
        {durationS !== null ? ` · ${durationS.toFixed(1)} s` : ''}
        {durationS !== null && (durationS < 3 || durationS > 30) ? ' — 5–15 s of one person speaking clones best' : ''}
      </span>
    </div>
  );
}

type RecorderState = { kind: 'idle' } | { kind: 'asking' } | { kind: 'recording'; startedAtMs: number } | { kind: 'finishing' };

/** Record / Stop with the time so far; `onRecorded` gets the WAV. */
export function MicRecorder({ onRecorded, disabled = false }: { onRecorded(file: File): void; disabled?: boolean }) {
  const unavailable = useMemo(() => recordingUnavailableReason(recordingEnvironment()), []);
  const [state, setState] = useState<RecorderState>({ kind: 'idle' });
  const [message, setMessage] = useState<string | null>(null);
  const [elapsedMs, setElapsedMs] = useState(0);
  const recorder = useRef<MediaRecorder | null>(null);
  const latest = useRef(onRecorded);
  latest.current = onRecorded;

  useEffect(() => {
    if (state.kind !== 'recording') return;
    const timer = setInterval(() => {
      const ms = Date.now() - state.startedAtMs;
      setElapsedMs(ms);
      if (ms >= MAX_RECORDING_MS) recorder.current?.stop();
    }, 100);
    return () => clearInterval(timer);
  }, [state]);
  // Leaving the form mid-recording lets the microphone go.
  useEffect(() => () => recorder.current?.stream.getTracks().forEach((t) => t.stop()), []);

  if (unavailable) {
    return (
      <p className="hint" role="status" data-testid="voice-record-unavailable">
        {unavailable}
      </p>
    );
  }

  const start = async () => {
    setMessage(null);
    setState({ kind: 'asking' });
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false } });
    } catch (err) {
      setMessage(microphoneErrorMessage(err));
      setState({ kind: 'idle' });
      return;
    }
    const chunks: Blob[] = [];
    const rec = new MediaRecorder(stream);
    recorder.current = rec;
    rec.ondataavailable = (e) => e.data.size > 0 && chunks.push(e.data);
    rec.onstop = () => {
      stream.getTracks().forEach((t) => t.stop());
      recorder.current = null;
      setState({ kind: 'finishing' });
      const ctx = new AudioContext();
      void recordingToWav(new Blob(chunks, { type: rec.mimeType }), (bytes) => ctx.decodeAudioData(bytes))
        .then((file) => latest.current(file), (err: unknown) => setMessage(`The recording could not be read back: ${err instanceof Error ? err.message : String(err)}; try again, or pick a file.`))
        .finally(() => {
          void ctx.close();
          setState({ kind: 'idle' });
        });
    };
    rec.start(250);
    setElapsedMs(0);
    setState({ kind: 'recording', startedAtMs: Date.now() });
  };

  return (
    <div className="inline" data-testid="voice-record">
      {state.kind === 'recording' ? (
        <button type="button" className="danger" data-testid="voice-record-stop" onClick={() => recorder.current?.stop()}>
          ■ Stop ({(elapsedMs / 1000).toFixed(1)} s of {MAX_RECORDING_MS / 1000})
        </button>
      ) : (
        <button type="button" data-testid="voice-record-start" disabled={disabled || state.kind !== 'idle'} onClick={() => void start()}>
          {state.kind === 'asking' ? 'Asking for the microphone…' : state.kind === 'finishing' ? 'Finishing…' : '● Record from the microphone'}
        </button>
      )}
      {message && (
        <span role="alert" className="error" data-testid="voice-record-error">
          {message}
        </span>
      )}
    </div>
  );
}
