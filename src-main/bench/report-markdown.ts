/**
 * Renders a run record as Markdown: the reference report's summary and per-pass tables (plus
 * audio-s/s, RTF, p99, first-audio and error columns), other modes, hashes and caveats. Pure.
 */
import { cell } from './report-format';
import { buildReportBlocks } from './report-sections';
import type { BenchRunRecord } from './run-record';

export function renderMarkdown(record: BenchRunRecord): string {
  const lines: string[] = [];
  for (const block of buildReportBlocks(record)) {
    switch (block.kind) {
      case 'heading':
        lines.push(`${'#'.repeat(block.level)} ${block.text}`, '');
        break;
      case 'paragraph':
        lines.push(block.text, '');
        break;
      case 'table':
        lines.push(`| ${block.header.map(cell).join(' | ')} |`, `|${block.header.map(() => '---').join('|')}|`);
        for (const row of block.rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
        lines.push('');
        break;
      case 'list':
        for (const item of block.items) lines.push(`- ${item}`);
        lines.push('');
        break;
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
