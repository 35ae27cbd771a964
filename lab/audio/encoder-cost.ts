/**
 * Cost of each response-format encoder per second of audio: CPU ms (the whole process, so the
 * codec worker threads count), wall ms and bytes, for a whole clip (encodeAudio) and for a stream
 * of 80 ms chunks (createAudioEncodeStream), the first call's cold start (module import, wasm
 * compile) and the longest event-loop stall during a whole-clip encode. Records numbers for
 * docs/benchmarks.md; asserts nothing.
 *   npx tsx lab/audio/encoder-cost.ts [--seconds 30] [--runs 5] [--rate 24000]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { AUDIO_FORMATS, type AudioFormat } from '../../src-shared/audio-format';
import { createAudioEncodeStream, defaultEncodeSettings, encodeAudio } from '../../src-main/audio/encode-audio';

interface Cost {
  cpuMs: number;
  wallMs: number;
  numBytes: number;
  maxStallMs: number;
}

function argValue(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

/** Speech-like test audio: a 120–220 Hz voiced buzz with 8 harmonics, a 4 Hz syllable envelope, a noise floor. */
function speechLikeSignal(sampleRateHz: number, durationS: number): Float32Array {
  const n = Math.round(sampleRateHz * durationS);
  const pcm = new Float32Array(n);
  let seed = 12345;
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const t = i / sampleRateHz;
    const f0 = 170 + 50 * Math.sin(2 * Math.PI * 0.7 * t);
    phase += (2 * Math.PI * f0) / sampleRateHz;
    let voiced = 0;
    for (let h = 1; h <= 8; h++) voiced += Math.sin(h * phase) / h;
    const envelope = 0.5 + 0.5 * Math.sin(2 * Math.PI * 4 * t);
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const noise = (seed / 0x7fffffff - 0.5) * 0.02;
    pcm[i] = 0.25 * envelope * voiced + noise;
  }
  return pcm;
}

async function measure(run: () => Promise<number>): Promise<Cost> {
  const loopDelay = monitorEventLoopDelay({ resolution: 2 });
  loopDelay.enable();
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  const numBytes = await run();
  const wallMs = performance.now() - wall0;
  const cpu = process.cpuUsage(cpu0);
  await new Promise((resolve) => setTimeout(resolve, 10)); // lets the monitor's timer record a stall that ended with the run
  loopDelay.disable();
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs, numBytes, maxStallMs: loopDelay.max / 1e6 };
}

async function encodeWhole(format: AudioFormat, pcm: Float32Array, sampleRateHz: number): Promise<number> {
  return (await encodeAudio({ pcm, sampleRateHz, format })).bytes.byteLength;
}

async function encodeStreamed(format: AudioFormat, pcm: Float32Array, sampleRateHz: number): Promise<number> {
  let numBytes = 0;
  const stream = createAudioEncodeStream({ sampleRateHz, format, onBytes: (b) => (numBytes += b.byteLength) });
  const chunk = Math.round(sampleRateHz * 0.08);
  for (let i = 0; i < pcm.length; i += chunk) await stream.write(pcm.subarray(i, i + chunk));
  await stream.end();
  return numBytes;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main(): Promise<void> {
  const durationS = argValue('seconds', 30);
  const numRuns = argValue('runs', 5);
  const sampleRateHz = argValue('rate', 24_000);
  const pcm = speechLikeSignal(sampleRateHz, durationS);
  const short = pcm.subarray(0, sampleRateHz); // 1 s: shows the fixed cost of one encode
  const bitrates = defaultEncodeSettings().bitrateKbps;
  console.log(`encoder cost: ${durationS} s of speech-like mono audio at ${sampleRateHz} Hz, median of ${numRuns} runs, node ${process.version}`);
  console.log('| format | bitrate | cold first call ms | CPU ms / audio-s | wall ms / audio-s | streamed CPU ms / audio-s | bytes / audio-s | 1 s clip CPU ms | longest event-loop stall ms |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const format of AUDIO_FORMATS) {
    const cold = await measure(() => encodeWhole(format, short, sampleRateHz));
    const whole: Cost[] = [];
    const streamed: Cost[] = [];
    const shortRuns: Cost[] = [];
    for (let r = 0; r < numRuns; r++) {
      whole.push(await measure(() => encodeWhole(format, pcm, sampleRateHz)));
      streamed.push(await measure(() => encodeStreamed(format, pcm, sampleRateHz)));
      shortRuns.push(await measure(() => encodeWhole(format, short, sampleRateHz)));
    }
    const bitrate = format in bitrates ? `${bitrates[format as keyof typeof bitrates]} kbps` : 'lossless';
    const perS = (costs: Cost[], key: keyof Cost) => (median(costs.map((c) => c[key])) / durationS).toFixed(key === 'numBytes' ? 0 : 2);
    console.log(
      `| ${format} | ${bitrate} | ${cold.wallMs.toFixed(0)} | ${perS(whole, 'cpuMs')} | ${perS(whole, 'wallMs')} | ${perS(streamed, 'cpuMs')} | ${perS(whole, 'numBytes')} | ${median(shortRuns.map((c) => c.cpuMs)).toFixed(1)} | ${median(whole.map((c) => c.maxStallMs)).toFixed(0)} |`,
    );
  }
}

void main();
