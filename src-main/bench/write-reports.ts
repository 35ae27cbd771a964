/**
 * Writes a run's three reports into a folder: <runId>.json (the record), <runId>.md and
 * <runId>.html. Each file is written to a temp name and renamed, so readers never see a torn file.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { renderHtml } from './report-html';
import { renderMarkdown } from './report-markdown';
import type { BenchRunRecord } from './run-record';

export async function writeBenchReports(record: BenchRunRecord, outDir: string): Promise<{ jsonPath: string; markdownPath: string; htmlPath: string }> {
  await fs.mkdir(outDir, { recursive: true });
  const write = async (fileName: string, text: string) => {
    const finalPath = path.join(outDir, fileName);
    const tempPath = `${finalPath}.${process.pid}.tmp`;
    await fs.writeFile(tempPath, text, 'utf8');
    await fs.rename(tempPath, finalPath);
    return finalPath;
  };
  return {
    jsonPath: await write(`${record.runId}.json`, `${JSON.stringify(record, null, 2)}\n`),
    markdownPath: await write(`${record.runId}.md`, renderMarkdown(record)),
    htmlPath: await write(`${record.runId}.html`, renderHtml(record)),
  };
}
