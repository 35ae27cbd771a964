#!/usr/bin/env node
// Lab transfer aid, not product code: zeroes the GPU machine code of every architecture but one (sm_90,
// Hopper: the H100 and H200) inside a CUDA library's .nv_fatbin section, so the library compresses to a
// fraction and reaches the GPU machine in two 64 MiB calls. Entry headers and each cubin's first 64 bytes
// (its ELF header) stay; a fatbin holding no cubin of the kept architecture is left whole.
//   node scripts/device/fatbin-prune.mjs <in.so> <out.so> [sm=90]
import fs from 'node:fs';

const [inPath, outPath, smArg] = process.argv.slice(2);
if (!inPath || !outPath) {
  console.error('usage: node scripts/device/fatbin-prune.mjs <in.so> <out.so> [sm=90]');
  process.exit(2);
}
const keepSm = Number(smArg ?? 90);
const buf = fs.readFileSync(inPath);
const FATBIN_MAGIC = 0xba55ed50;
const ELF_KIND = 2;
const ELF_HEADER_BYTES = 64;

/** The .nv_fatbin section's file range, read from the ELF64 section headers. */
function fatbinSection(elf) {
  if (elf.readUInt32BE(0) !== 0x7f454c46 || elf[4] !== 2) throw new Error(`${inPath} is not a 64-bit ELF file`);
  const shoff = Number(elf.readBigUInt64LE(0x28));
  const shentsize = elf.readUInt16LE(0x3a);
  const shnum = elf.readUInt16LE(0x3c);
  const shstrndx = elf.readUInt16LE(0x3e);
  const strOff = Number(elf.readBigUInt64LE(shoff + shstrndx * shentsize + 0x18));
  for (let i = 0; i < shnum; i++) {
    const h = shoff + i * shentsize;
    const nameOff = strOff + elf.readUInt32LE(h);
    const name = elf.toString('latin1', nameOff, elf.indexOf(0, nameOff));
    if (name === '.nv_fatbin') return { start: Number(elf.readBigUInt64LE(h + 0x18)), size: Number(elf.readBigUInt64LE(h + 0x20)) };
  }
  throw new Error(`${inPath} has no .nv_fatbin section`);
}

const { start, size } = fatbinSection(buf);
let blobs = 0, keptWhole = 0, zeroedBytes = 0;
for (let p = start; p < start + size; ) {
  if (buf.readUInt32LE(p) !== FATBIN_MAGIC) { p += 8; continue; }
  const headerBytes = buf.readUInt16LE(p + 6);
  const end = p + headerBytes + Number(buf.readBigUInt64LE(p + 8));
  const entries = [];
  for (let q = p + headerBytes; q < end; ) {
    const entryHeaderBytes = buf.readUInt32LE(q + 4);
    const payloadBytes = buf.readUInt32LE(q + 8);
    entries.push({ kind: buf.readUInt16LE(q), sm: buf.readUInt32LE(q + 28), payload: q + entryHeaderBytes, payloadBytes });
    q += entryHeaderBytes + payloadBytes;
  }
  blobs++;
  if (entries.some((e) => e.kind === ELF_KIND && e.sm === keepSm)) {
    for (const e of entries) {
      if (e.kind !== ELF_KIND || e.sm === keepSm || e.payloadBytes <= ELF_HEADER_BYTES) continue;
      buf.fill(0, e.payload + ELF_HEADER_BYTES, e.payload + e.payloadBytes);
      zeroedBytes += e.payloadBytes - ELF_HEADER_BYTES;
    }
  } else keptWhole++;
  p = end;
}
fs.writeFileSync(outPath, buf, { mode: 0o755 });
console.log(`${blobs} fatbins, ${keptWhole} without sm_${keepSm} kept whole; ${(zeroedBytes / 1e6).toFixed(1)} MB of other architectures' code zeroed → ${outPath}`);
