/**
 * What the desktop app's menu commands and dropped files do in the renderer: open/save-as through
 * the native dialogs (main grants the picked path), audio imports, and dropped text/SSML/projects.
 * Each returns a one-line notice for the user, or null when there is nothing to say.
 */
import { CHANNELS } from '../../src-shared/ipc-contract';
import type { DroppedFile, ImportedAudio, MenuCommand } from '../../src-shared/contract/desktop';
import { toStudioError } from '../../src-shared/errors';
import { call } from '../ipc/client';
import { useStudioStore } from '../store/store';
import { saveProject } from '../features/projects/project-actions';
import { openProject } from '../shared-state/project-document';
import type { Area } from './shell.slice';

function importedNotice(imported: ImportedAudio[]): string | null {
  if (imported.length === 0) return null;
  const names = imported.map((i) => `${i.originalName} → ${i.path}`).join(', ');
  return `Imported ${imported.length} audio file${imported.length === 1 ? '' : 's'} into the data folder: ${names}. Use the path in SSML <audio src="…">.`;
}

export async function runMenuCommand(command: MenuCommand): Promise<string | null> {
  const s = useStudioStore.getState();
  try {
    switch (command) {
      case 'open-project': {
        const { path } = await call(CHANNELS.showOpenProject, {});
        if (path) {
          await openProject(path);
          s.setArea('timeline');
        }
        return null;
      }
      case 'save-project':
        await saveProject();
        return null;
      case 'save-project-as': {
        const { path } = await call(CHANNELS.showSaveProject, { suggestedName: s.projectName });
        if (!path) return null;
        s.setProjectMeta({ projectPath: path });
        await saveProject();
        return null;
      }
      case 'import-audio':
        return importedNotice((await call(CHANNELS.showImportAudio, {})).imported);
      case 'show-voice':
      case 'show-timeline':
      case 'show-library':
      case 'show-bench':
      case 'show-models':
      case 'show-settings':
        s.setArea(command.slice('show-'.length) as Area);
        return null;
    }
  } catch (err) {
    return toStudioError(err).message;
  }
}

export async function acceptDroppedFiles(files: readonly DroppedFile[]): Promise<string | null> {
  const s = useStudioStore.getState();
  const notices: string[] = [];
  const imported: ImportedAudio[] = [];
  for (const f of files) {
    switch (f.kind) {
      case 'audio':
        imported.push(f.imported);
        break;
      case 'text':
      case 'ssml':
        s.setEditorText(f.text);
        s.setEditorFormat(f.kind);
        s.setArea('timeline');
        notices.push(`${f.name} is in the editor.`);
        break;
      case 'project':
        await openProject(f.path);
        s.setArea('timeline');
        break;
      case 'refused':
        notices.push(f.reason);
        break;
    }
  }
  const importNotice = importedNotice(imported);
  if (importNotice) notices.unshift(importNotice);
  return notices.length > 0 ? notices.join(' ') : null;
}
