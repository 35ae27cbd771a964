/**
 * JSON wire encoding for the WebSocket bridge: typed arrays (PCM, WAV bytes) travel as tagged
 * base64 so a SynthesisResult survives the trip intact. Pure; uses only btoa/atob, which both
 * Node 20 and browsers provide.
 */

type Tagged = { __typed: 'f32' | 'u8'; b64: string };

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    binary += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + step)));
  }
  return btoa(binary);
}

function base64ToBytes(b64: string): Uint8Array {
  const binary = atob(b64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function encodeWire(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Float32Array) {
      return { __typed: 'f32', b64: bytesToBase64(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) } satisfies Tagged;
    }
    if (v instanceof Uint8Array) return { __typed: 'u8', b64: bytesToBase64(v) } satisfies Tagged;
    return v;
  });
}

export function decodeWire(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === 'object' && '__typed' in v && 'b64' in v) {
      const t = v as Tagged;
      const bytes = base64ToBytes(t.b64);
      return t.__typed === 'f32' ? new Float32Array(bytes.buffer, 0, bytes.byteLength / 4) : bytes;
    }
    return v;
  });
}

/** Messages on the WebSocket bridge. */
export type WireClientMessage = { kind: 'call'; id: number; channel: string; payload: unknown };
export type WireServerMessage =
  | { kind: 'reply'; id: number; reply: unknown }
  | { kind: 'event'; event: string; payload: unknown };
