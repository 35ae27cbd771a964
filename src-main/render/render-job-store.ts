/**
 * The studio's renders on disk: <data>/renders/<id>/render.json holds the job as the UI sees it
 * plus what a resume needs (the copied document, settings, queue URL), written whole to a temporary
 * name and renamed, so a crash leaves the previous state. A job found 'running' at start-up was
 * cut off by a quit or crash and is listed 'interrupted'. No engine, no queue: files only.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RenderJob } from '../../src-shared/contract/render';
import type { RenderSettings } from './render-plan';

export interface RenderRecord {
  job: RenderJob;
  /** The document as copied at start (a file, or a folder of files): the render never reads the original again. */
  documentPath: string;
  settings: RenderSettings;
  /** The queue the parts went to, or null: this machine's engines. */
  queueUrl: string | null;
}

const RECORD_FILE = 'render.json';

export class RenderJobStore {
  readonly rootDir: string;

  constructor(dataDir: string) {
    this.rootDir = path.join(dataDir, 'renders');
  }

  jobDir(jobId: string): string {
    return path.join(this.rootDir, jobId);
  }

  save(record: RenderRecord): void {
    const file = path.join(this.jobDir(record.job.id), RECORD_FILE);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(record, null, 1));
    fs.renameSync(temp, file);
  }

  /** Every readable record, newest first; 'running' ones come back 'interrupted' (nothing runs them after a restart). */
  loadAll(): RenderRecord[] {
    let ids: string[];
    try {
      ids = fs.readdirSync(this.rootDir);
    } catch {
      return [];
    }
    const records: RenderRecord[] = [];
    for (const id of ids) {
      try {
        const record = JSON.parse(fs.readFileSync(path.join(this.rootDir, id, RECORD_FILE), 'utf8')) as RenderRecord;
        if (record.job?.id !== id) continue;
        if (record.job.state === 'running') record.job = { ...record.job, state: 'interrupted' };
        records.push(record);
      } catch {
        // not a render folder (or a record cut off mid-write before its first rename): skip it
      }
    }
    return records.sort((a, b) => b.job.createdAtMs - a.job.createdAtMs);
  }
}
