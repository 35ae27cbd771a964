/**
 * The Render page: a long document (the editor's, pasted text, a project, or a file the studio may
 * read) rendered in parts with the voice picked here (the Voice page's, shared) and its parameters, on this machine's engines or
 * on the render queue set below; every render with its progress per chapter, newest first.
 */
import { useEffect, useState } from 'react';
import type { RenderSource } from '../../../src-shared/contract/render';
import type { RecentProject } from '../../../src-shared/contract/projects';
import { useStudioStore } from '../../store/store';
import { SEED_LIMIT } from '../../../src-shared/sampling-limits';
import { NumberField } from '../../components/NumberField';
import { isDesktopApp } from '../../ipc/client';
import { chooseRenderDocument, followRenders, listRenderableProjects, saveRenderQueue, startRender } from './render-actions';
import { RenderJobCard } from './RenderJobCard';
import { savedVoiceLabel, speakerDisplayName } from '../../components/voice-names';
import { speakableSavedVoices } from '../../components/voice-fit';
import './render.css';
import { hostBlockedProps, useHostBlocked } from '../../shared-state/useHostBlocked';

type SourceKind = 'editor' | 'text' | 'project' | 'file';

function sourceOf(kind: SourceKind, draft: { text: string; format: 'text' | 'ssml'; title: string; path: string }, editor: { text: string; format: 'text' | 'ssml'; name: string }): RenderSource {
  switch (kind) {
    case 'editor':
      return { kind: 'text', text: editor.text, inputFormat: editor.format, title: editor.name };
    case 'text':
      return { kind: 'text', text: draft.text, inputFormat: draft.format, title: draft.title.trim() || 'Render' };
    case 'project':
      return { kind: 'project', path: draft.path.trim() };
    case 'file':
      return { kind: 'file', path: draft.path.trim() };
  }
}

function QueueSetting() {
  const queueUrl = useStudioStore((s) => s.renderQueueUrl);
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <form className="toolbar" onSubmit={(e) => (e.preventDefault(), void saveRenderQueue(draft ?? '').then(() => setDraft(null)))}>
      <label className="inline grow">
        Render queue
        <input className="grow" aria-label="Render queue URL" placeholder="empty: this machine's engines; redis://host:6379 for studio workers" value={draft ?? queueUrl ?? ''} onChange={(e) => setDraft(e.target.value)} />
      </label>
      <button type="submit" disabled={draft === null}>Save</button>
    </form>
  );
}

/** The voice a render speaks in: the loaded model's speakers and the saved voices it can speak (the Voice page's choice, shared). */
function RenderVoicePicker() {
  const chosen = useStudioStore((s) => s.voiceSettings.voice);
  const speakers = useStudioStore((s) => s.voices);
  const saved = speakableSavedVoices(useStudioStore((s) => s.savedVoices), useStudioStore((s) => s.modelInfo));
  const update = useStudioStore((s) => s.updateVoiceSettings);
  const offered = speakers.some((v) => v.name === chosen) || saved.some((v) => v.id === chosen);
  return (
    <label className="inline">
      Voice{' '}
      <select aria-label="Render voice" value={chosen} onChange={(e) => update({ voice: e.target.value })}>
        {!offered && <option value={chosen}>{chosen}</option>}
        {speakers.map((v) => (
          <option key={v.name} value={v.name}>{speakerDisplayName(v.name)}</option>
        ))}
        {saved.map((v) => (
          <option key={v.id} value={v.id}>{savedVoiceLabel(v)}</option>
        ))}
      </select>
    </label>
  );
}

export function RenderPanel() {
  const renders = useStudioStore((s) => s.renders);
  const error = useStudioStore((s) => s.renderError);
  const voice = useStudioStore((s) => s.voiceSettings);
  const editor = { text: useStudioStore((s) => s.editorText), format: useStudioStore((s) => s.editorFormat), name: useStudioStore((s) => s.projectName) };
  const [projects, setProjects] = useState<RecentProject[]>([]);
  const [kind, setKind] = useState<SourceKind>('text');
  const [draft, setDraft] = useState({ text: '', format: 'text' as 'text' | 'ssml', title: '', path: '' });
  const [seed, setSeed] = useState(voice.seed);
  const [outputDir, setOutputDir] = useState('');
  useEffect(() => followRenders(), []);
  useEffect(() => {
    if (kind === 'project') void listRenderableProjects().then(setProjects);
  }, [kind]);
  const patch = (p: Partial<typeof draft>) => setDraft((d) => ({ ...d, ...p }));
  const hostBlocked = useHostBlocked();
  const ready = kind === 'editor' ? editor.text.trim() !== '' : kind === 'text' ? draft.text.trim() !== '' : draft.path.trim() !== '';
  return (
    <section className="panel render-form" aria-labelledby="render-heading">
      <h2 id="render-heading">Render</h2>
      <p className="hint">Books, courses, long scripts: split at chapters (# headings), paragraphs and SSML &lt;p&gt;, rendered part by part and joined with one loudness normalisation. Finished parts are kept, so a stopped render resumes where it was.</p>
      <div className="segmented" role="radiogroup" aria-label="Document">
        {(['text', 'editor', 'project', 'file'] as const).map((k) => (
          <label key={k}>
            <input type="radio" name="render-source" checked={kind === k} onChange={() => setKind(k)} /> {{ text: 'Text', editor: "The editor's document", project: 'A project', file: 'A file or folder' }[k]}
          </label>
        ))}
      </div>
      {kind === 'text' && (
        <>
          <div className="toolbar">
            <input aria-label="Render title" placeholder="Title" value={draft.title} maxLength={200} onChange={(e) => patch({ title: e.target.value })} />
            <select aria-label="Text format" value={draft.format} onChange={(e) => patch({ format: e.target.value as 'text' | 'ssml' })}>
              <option value="text">Plain text</option>
              <option value="ssml">SSML</option>
            </select>
          </div>
          <textarea aria-label="Document text" rows={8} value={draft.text} onChange={(e) => patch({ text: e.target.value })} placeholder={'# Chapter one\n\nA paragraph.\n\nAnother paragraph.'} />
        </>
      )}
      {kind === 'editor' && <p className="hint">{editor.format.toUpperCase()} · {editor.text.length.toLocaleString()} characters of “{editor.name}”.</p>}
      {kind === 'project' && (
        <select aria-label="Project" value={draft.path} onChange={(e) => patch({ path: e.target.value })}>
          <option value="">Pick a project…</option>
          {projects.map((p) => (
            <option key={p.path} value={p.path}>{p.name}</option>
          ))}
        </select>
      )}
      {kind === 'file' && (
        <div className="toolbar">
          <input className="grow" aria-label="Document path" placeholder="a .txt/.md/.ssml file or a folder of them, in the data folder's projects folder or opened in the desktop app" value={draft.path} onChange={(e) => patch({ path: e.target.value })} />
          {isDesktopApp() && <button onClick={() => void chooseRenderDocument().then((p) => p && patch({ path: p }))}>Choose…</button>}
        </div>
      )}
      <div className="toolbar">
        <RenderVoicePicker />
        <span className="muted">{voice.language} (Voice page)</span>
        <label className="inline">
          Seed <NumberField aria-label="Render seed" range={SEED_LIMIT} value={seed} onValue={(s) => s !== null && setSeed(s)} />
        </label>
        <input className="grow" aria-label="Output folder" placeholder="Output folder (default: the data folder's renders/)" value={outputDir} onChange={(e) => setOutputDir(e.target.value)} />
        <button className="primary" disabled={!ready || hostBlocked !== null} {...hostBlockedProps(hostBlocked)} onClick={() => void startRender(sourceOf(kind, draft, editor), { seed, outputDir: outputDir.trim() || undefined })}>Start render</button>
      </div>
      <QueueSetting />
      {error && <p role="alert" className="error">{error}</p>}
      {renders.length === 0 ? <p className="hint">No renders yet.</p> : renders.map((job) => <RenderJobCard key={job.id} job={job} />)}
    </section>
  );
}
