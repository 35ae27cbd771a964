// @vitest-environment jsdom
// The clone form's comforts: the picked clip can be heard before cloning; recording says plainly
// when the page may not record or the microphone is refused, and a finished recording is handed on
// as a WAV file.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MicRecorder, ReferenceClipPlayer } from './ReferenceClip';

function allowRecording(getUserMedia: () => Promise<unknown>) {
  vi.stubGlobal('isSecureContext', true);
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
}

class FakeMediaRecorder {
  static last: FakeMediaRecorder | null = null;
  mimeType = 'audio/webm';
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  constructor(public stream: { getTracks(): { stop(): void }[] }) {
    FakeMediaRecorder.last = this;
  }
  start() {}
  stop() {
    this.ondataavailable?.({ data: new Blob([Uint8Array.of(9)]) });
    this.onstop?.();
  }
}

class FakeAudioContext {
  decodeAudioData = async () => ({ numberOfChannels: 1, sampleRate: 24_000, getChannelData: () => new Float32Array(240) });
  close = async () => undefined;
}

describe('ReferenceClip', () => {
  beforeEach(() => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:clip', revokeObjectURL: () => undefined }));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'mediaDevices');
  });

  it('plays the picked clip before it is cloned', () => {
    render(<ReferenceClipPlayer file={new File([Uint8Array.of(1)], 'anna.mp3', { type: 'audio/mpeg' })} />);
    const audio = screen.getByLabelText('Play the reference clip');
    expect(audio.getAttribute('src')).toBe('blob:clip');
    expect(screen.getByTestId('voice-clone-reference').textContent).toContain('anna.mp3');
  });

  it('says why it cannot record on a page that may not', () => {
    vi.stubGlobal('isSecureContext', false);
    render(<MicRecorder onRecorded={() => undefined} />);
    expect(screen.getByTestId('voice-record-unavailable').textContent).toMatch(/secure page/);
    expect(screen.queryByTestId('voice-record-start')).toBeNull();
  });

  it('says the microphone was refused', async () => {
    vi.stubGlobal('MediaRecorder', FakeMediaRecorder);
    allowRecording(() => Promise.reject(Object.assign(new Error('denied'), { name: 'NotAllowedError' })));
    render(<MicRecorder onRecorded={() => undefined} />);
    fireEvent.click(screen.getByTestId('voice-record-start'));
    await waitFor(() => expect(screen.getByTestId('voice-record-error').textContent).toMatch(/refused; allow it/));
  });

  it('records, stops and hands the recording on as a WAV, letting the microphone go', async () => {
    vi.stubGlobal('MediaRecorder', FakeMediaRecorder);
    vi.stubGlobal('AudioContext', FakeAudioContext);
    const track = { stop: vi.fn() };
    allowRecording(async () => ({ getTracks: () => [track] }));
    const onRecorded = vi.fn();
    render(<MicRecorder onRecorded={onRecorded} />);
    fireEvent.click(screen.getByTestId('voice-record-start'));
    fireEvent.click(await screen.findByTestId('voice-record-stop'));
    await waitFor(() => expect([onRecorded.mock.calls.length, screen.queryByTestId('voice-record-error')?.textContent ?? null]).toEqual([1, null]));
    const file = onRecorded.mock.calls[0][0] as File;
    expect(file.name).toMatch(/^recording-\d\d-\d\d-\d\d\.wav$/);
    expect(file.size).toBe(44 + 480);
    expect(track.stop).toHaveBeenCalled();
    await waitFor(() => expect(screen.getByTestId('voice-record-start').textContent).toMatch(/Record from the microphone/));
  });
});
