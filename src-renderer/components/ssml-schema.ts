/**
 * The SSML dialect the editor completes: elements, where they may appear, and attribute values.
 * Used for CodeMirror's XML autocompletion; the studio's parser is the authority on validity, and the
 * say-as values are its own list (src-shared/ssml-say-as.ts).
 */
import type { ElementSpec } from '@codemirror/lang-xml';
import { SAY_AS_ALL } from '../../src-shared/ssml-say-as';

const INLINE = ['voice', 'prosody', 'break', 'mark', 'emphasis', 'say-as', 'sub', 'lang', 's', 'p'];

export function ssmlElements(voiceNames: string[]): ElementSpec[] {
  return [
    { name: 'speak', top: true, children: INLINE, attributes: [{ name: 'xml:lang', values: ['en-US', 'zh-CN', 'de-DE', 'ja-JP'] }, 'version'] },
    { name: 'voice', children: INLINE, attributes: [{ name: 'name', values: voiceNames }, { name: 'xml:lang', values: ['en-US', 'zh-CN', 'de-DE', 'ja-JP', 'ko-KR', 'fr-FR', 'es-ES', 'it-IT', 'pt-BR', 'ru-RU'] }, { name: 'gender', values: ['female', 'male'] }, 'description'] },
    {
      name: 'prosody',
      children: INLINE,
      attributes: [
        { name: 'rate', values: ['x-slow', 'slow', 'medium', 'fast', 'x-fast', '80%', '120%'] },
        { name: 'pitch', values: ['x-low', 'low', 'medium', 'high', 'x-high', '+2st', '-2st'] },
        { name: 'volume', values: ['silent', 'x-soft', 'soft', 'medium', 'loud', 'x-loud', '+3dB', '-3dB'] },
      ],
    },
    { name: 'break', children: [], attributes: [{ name: 'time', values: ['120ms', '300ms', '500ms', '1s'] }, { name: 'strength', values: ['none', 'x-weak', 'weak', 'medium', 'strong', 'x-strong'] }] },
    { name: 'mark', children: [], attributes: ['name'] },
    { name: 'emphasis', children: INLINE, attributes: [{ name: 'level', values: ['strong', 'moderate', 'reduced', 'none'] }] },
    { name: 'say-as', children: [], attributes: [{ name: 'interpret-as', values: [...SAY_AS_ALL] }, 'format'] },
    { name: 'sub', children: [], attributes: ['alias'] },
    { name: 'lang', children: INLINE, attributes: ['xml:lang'] },
    { name: 'p', children: INLINE },
    { name: 's', children: INLINE },
  ];
}
