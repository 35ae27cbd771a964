/**
 * Line:column lookup for a source string and the one constructor of positioned SSML errors.
 * Lines and columns are 1-based; columns count UTF-16 code units, as editors do.
 */
import { StudioError, type ErrorCode } from '../../src-shared/errors';

export interface SourcePosition {
  line: number;
  column: number;
}

export class SourcePositions {
  private readonly lineStarts: number[] = [0];

  constructor(private readonly source: string) {
    for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  at(offset: number): SourcePosition {
    const clamped = Math.max(0, Math.min(offset, this.source.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= clamped) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: clamped - this.lineStarts[lo] + 1 };
  }
}

export interface SsmlProblem {
  position: SourcePosition;
  element: string;
  attribute: string;
  value: string;
  allowed: readonly string[];
  /** What is wrong and the fix, without the position (added here). */
  message: string;
}

export function ssmlError(problem: SsmlProblem, code: ErrorCode = 'ssml-invalid'): StudioError {
  const { line, column } = problem.position;
  return new StudioError(code, `SSML ${line}:${column}: ${problem.message}`, {
    line,
    column,
    element: problem.element,
    attribute: problem.attribute,
    value: problem.value.length > 200 ? `${problem.value.slice(0, 200)}…` : problem.value,
    allowed: [...problem.allowed],
  });
}
