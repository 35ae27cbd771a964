/**
 * Files dropped on the window: the preload reads their paths off the real dropped File objects
 * (webUtils.getPathForFile; a File the page built itself has no path) and sends only those to main,
 * which imports or grants them and answers with studio:desktop.onDidDropFiles. Dropping a file also
 * no longer navigates the window away from the studio.
 */
import { DESKTOP_DROP_MESSAGE, MAX_DROPPED_FILES } from '../src-shared/contract/desktop';

export interface DropTarget {
  addEventListener(type: 'dragover' | 'drop', listener: (e: DragEvent) => void): void;
}

export function listenForDroppedFiles(target: DropTarget, pathForFile: (file: File) => string, send: (channel: string, paths: string[]) => void): void {
  const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
  target.addEventListener('dragover', (e) => {
    if (hasFiles(e)) e.preventDefault();
  });
  target.addEventListener('drop', (e) => {
    if (!hasFiles(e)) return; // text dragged inside the editor stays the editor's
    e.preventDefault();
    const paths = Array.from(e.dataTransfer?.files ?? [])
      .slice(0, MAX_DROPPED_FILES)
      .map((f) => pathForFile(f))
      .filter((p) => typeof p === 'string' && p.length > 0);
    if (paths.length > 0) send(DESKTOP_DROP_MESSAGE, paths);
  });
}
