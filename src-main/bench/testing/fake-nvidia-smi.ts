/**
 * Test support: writes an executable stand-in for nvidia-smi into a temp folder. For the one-shot
 * name/driver query it prints one H200 line; for the -lms stream it prints a reading every 50 ms
 * whose utilisation alternates 40/60 % and whose memory climbs from 6000 MiB.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function writeFakeNvidiaSmi(): { command: string; dispose(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-nvidia-smi-'));
  const command = path.join(dir, 'nvidia-smi');
  fs.writeFileSync(
    command,
    [
      '#!/bin/sh',
      'case "$*" in',
      '  *name,driver_version*) echo "NVIDIA H200, 570.86.15, 143771"; exit 0 ;;',
      'esac',
      'i=0',
      'while [ $i -lt 2000 ]; do',
      '  if [ $((i % 2)) -eq 0 ]; then u=40; else u=60; fi',
      '  echo "$u, $((6000 + i)), 143771"',
      '  i=$((i + 1))',
      '  sleep 0.05',
      'done',
      '',
    ].join('\n'),
  );
  fs.chmodSync(command, 0o755);
  return { command, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
