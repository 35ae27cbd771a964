/**
 * Speak's SSML mode: the studio's SSML editor (tuning panel, lexicon editor, marks in the text) over
 * Speak's text, checked live by the generation parser (studio:ssml.validate, debounced, with the
 * reading options Generate sends), Mod-Enter to generate, and the lexicon's preview spoken with the
 * current voice (shared-state/pronunciation-preview.ts).
 */
import { useEffect, useMemo, useState } from 'react';
import { CHANNELS } from '../../../src-shared/ipc-contract';
import { call } from '../../ipc/client';
import { useStudioStore } from '../../store/store';
import { SsmlEditor, type EditorDiagnostic } from '../../components/SsmlEditor';
import { speakableSavedVoices } from '../../components/voice-fit';
import { PRONUNCIATION_PREVIEW, previewPronunciation } from '../../shared-state/pronunciation-preview';

export const SPEAK_CHECK_DELAY_MS = 300;

/** The parser's diagnostics for Speak's SSML, debounced; none while the host cannot be asked. */
function useSpeakSsmlCheck(text: string, delayMs: number): EditorDiagnostic[] {
  const [diagnostics, setDiagnostics] = useState<EditorDiagnostic[]>([]);
  const language = useStudioStore((s) => s.voiceSettings.language);
  const ssmlOptions = useStudioStore((s) => (s.editorFormat === 'ssml' ? s.editorSsmlOptions : undefined));
  useEffect(() => {
    let stale = false;
    const timer = setTimeout(() => {
      call(CHANNELS.validateSsml, { text, ...(ssmlOptions ? { ssmlOptions } : {}), ...(language ? { language } : {}) })
        .then((r) => !stale && setDiagnostics(r.ok ? [] : r.diagnostics))
        .catch(() => {
          // the host is unreachable; the header says so
        });
    }, delayMs);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [text, language, ssmlOptions, delayMs]);
  return diagnostics;
}

/** `onProblems`: how many problems the live check found (Speak keeps Generate off while there are any). */
export function SpeakSsmlEditor(props: { blocker: string | null; running: boolean; onSubmit(): void; onProblems?(numProblems: number): void; checkDelayMs?: number }) {
  const text = useStudioStore((s) => s.speakText);
  const setText = useStudioStore((s) => s.setSpeakText);
  const voices = useStudioStore((s) => s.voices);
  const savedVoices = useStudioStore((s) => s.savedVoices);
  const modelInfo = useStudioStore((s) => s.modelInfo);
  const previewing = useStudioStore((s) => s.previewingVoice);
  const diagnostics = useSpeakSsmlCheck(text, props.checkDelayMs ?? SPEAK_CHECK_DELAY_MS);
  const onProblems = props.onProblems;
  useEffect(() => {
    onProblems?.(diagnostics.length);
    return () => onProblems?.(0); // plain-text mode has no SSML problems
  }, [diagnostics.length, onProblems]);
  const names = useMemo(() => [...voices.map((v) => v.name), ...speakableSavedVoices(savedVoices, modelInfo).map((v) => v.name)], [voices, savedVoices, modelInfo]);
  const preview = { run: (ssml: string) => void previewPronunciation(ssml, (m) => useStudioStore.getState().setSpeakError(m)), busy: previewing === PRONUNCIATION_PREVIEW, blocked: props.blocker };
  return (
    <div data-testid="speak-ssml-editor">
      <SsmlEditor value={text} format="ssml" diagnostics={diagnostics} voiceNames={names} onChange={setText} onSubmit={() => !props.running && props.blocker === null && diagnostics.length === 0 && props.onSubmit()} preview={preview} />
    </div>
  );
}
