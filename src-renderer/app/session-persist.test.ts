// @vitest-environment jsdom
// Session persistence: a reload (a fresh store reading the same storage) keeps area, voice, seed,
// texts and project; a session from another version or with a bad field is dropped, not applied.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetStore, useStudioStore } from '../store/store';
import { SESSION_STORAGE_KEY, SESSION_VERSION, readSession, sessionSnapshot, startSessionPersistence } from './session-persist';

describe('session persistence', () => {
  let stop: (() => void) | null = null;
  beforeEach(() => {
    resetStore();
    localStorage.clear();
  });
  afterEach(() => {
    stop?.();
    stop = null;
  });

  it('keeps voice, seed, texts, area and project across a reload', async () => {
    stop = startSessionPersistence(useStudioStore, localStorage, 5).stop;
    const s = useStudioStore.getState();
    s.setArea('timeline');
    s.updateVoiceSettings({ voice: 'aiden', seed: 777, language: 'english' });
    s.setSpeakText('Say this after a reload');
    s.setSeedMode('random');
    s.setEditorText('<speak>kept</speak>');
    s.setEditorSsmlOptions({ dialect: 'azure', lenient: true });
    s.setProjectMeta({ projectName: 'Reloaded', projectId: 'project-1234' });
    await vi.waitFor(() => expect(localStorage.getItem(SESSION_STORAGE_KEY)).toContain('Reloaded'));
    stop();
    stop = null;

    resetStore(); // the reload: a fresh store
    expect(useStudioStore.getState().area).toBe('speak');
    const { restored } = startSessionPersistence(useStudioStore, localStorage, 5);
    expect(restored).not.toBeNull();
    const r = useStudioStore.getState();
    expect(r.area).toBe('timeline');
    expect(r.voiceSettings).toMatchObject({ voice: 'aiden', seed: 777, language: 'english' });
    expect(r.speakText).toBe('Say this after a reload');
    expect(r.seedMode).toBe('random');
    expect(r.editorText).toBe('<speak>kept</speak>');
    expect(r.editorSsmlOptions).toEqual({ dialect: 'azure', lenient: true });
    expect(r.projectName).toBe('Reloaded');
    expect(r.projectId).toBe('project-1234');
  });

  it('writes a pending change at once when the page hides', () => {
    stop = startSessionPersistence(useStudioStore, localStorage, 60_000).stop;
    useStudioStore.getState().setSpeakText('flushed');
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    window.dispatchEvent(new Event('pagehide'));
    expect(readSession(localStorage)?.speakText).toBe('flushed');
  });

  it('drops a stored session of another version, with a bad field, or not JSON', () => {
    const good = sessionSnapshot(useStudioStore.getState());
    for (const bad of [
      JSON.stringify({ ...good, version: SESSION_VERSION + 1 }),
      JSON.stringify({ ...good, area: 'nowhere' }),
      JSON.stringify({ ...good, voiceSettings: { ...good.voiceSettings, seed: -1 } }),
      JSON.stringify({ ...good, editorText: 42 }),
      JSON.stringify({ ...good, voiceSettings: { ...good.voiceSettings, params: { doSample: 'yes' } } }),
      JSON.stringify({ ...good, editorSsmlOptions: { dialect: 'klingon', lenient: false } }),
      JSON.stringify({ ...good, projectId: '' }),
      '{not json',
    ]) {
      localStorage.setItem(SESSION_STORAGE_KEY, bad);
      expect(readSession(localStorage)).toBeNull();
      expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    }
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ ...good, area: 'bench' }));
    expect(readSession(localStorage)?.area).toBe('bench');
    const params = { doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05 };
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ ...good, voiceSettings: { ...good.voiceSettings, params }, extra: 'ignored' }));
    expect(readSession(localStorage)?.voiceSettings.params).toEqual(params);
    expect(readSession(localStorage)).not.toHaveProperty('extra');
  });

  it('leaves the store as it is when the stored session is invalid', () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ version: SESSION_VERSION, area: 'library' }));
    const { restored, stop: s } = startSessionPersistence(useStudioStore, localStorage, 5);
    stop = s;
    expect(restored).toBeNull();
    expect(useStudioStore.getState().area).toBe('speak');
  });
});
