// Draws the app icon (512x512 PNG: a rounded violet square with five waveform bars) into
// dist/build-resources/icon.png for electron-builder, which derives the .ico and .icns from it.
// The icon is code, not a committed binary; `npm run package` runs this first.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

const SIZE_PX = 512;
const out = path.resolve(process.argv[2] ?? 'dist/build-resources/icon.png');

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** RGBA of pixel (x, y). */
function pixel(x, y) {
  const r = 96; // corner radius
  const inset = 16;
  const cx = Math.min(Math.max(x, inset + r), SIZE_PX - inset - r);
  const cy = Math.min(Math.max(y, inset + r), SIZE_PX - inset - r);
  const inside = (x - cx) ** 2 + (y - cy) ** 2 <= r * r && x >= inset && y >= inset && x < SIZE_PX - inset && y < SIZE_PX - inset;
  if (!inside) return [0, 0, 0, 0];
  const heights = [120, 220, 300, 200, 140];
  const barW = 44;
  const gap = 28;
  const left = (SIZE_PX - (heights.length * barW + (heights.length - 1) * gap)) / 2;
  const i = Math.floor((x - left) / (barW + gap));
  const inBar = i >= 0 && i < heights.length && x - left - i * (barW + gap) < barW && Math.abs(y - SIZE_PX / 2) < heights[i] / 2;
  if (inBar) return [255, 255, 255, 255];
  const t = y / SIZE_PX;
  return [Math.round(110 + 40 * t), Math.round(60 + 20 * t), Math.round(200 - 30 * t), 255];
}

const raw = Buffer.alloc((SIZE_PX * 4 + 1) * SIZE_PX);
for (let y = 0; y < SIZE_PX; y++) {
  raw[y * (SIZE_PX * 4 + 1)] = 0; // filter: none
  for (let x = 0; x < SIZE_PX; x++) Buffer.from(pixel(x, y)).copy(raw, y * (SIZE_PX * 4 + 1) + 1 + x * 4);
}
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE_PX, 0);
header.writeUInt32BE(SIZE_PX, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, png);
console.log(`icon: ${out} (${SIZE_PX}x${SIZE_PX}, ${png.length} bytes)`);
