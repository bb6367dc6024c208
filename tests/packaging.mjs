// packaging.mjs — the packed tarball and reproducible installs, shared by the
// package and framework tests. A fixture's own dependencies come from the
// lockfile committed beside it (`npm ci`: the same versions today and in a
// month); posnorm itself, which has no dependencies, is unpacked from the
// tarball into node_modules/posnorm, so no resolution happens at test time.
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/** `npm pack` of the repository at `root` into `dest`; returns the tarball's path. */
export function packTarball(root, dest) {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], { cwd: root, encoding: 'utf8' }));
  return join(dest, packed[0].filename);
}

/** Unpacks the tarball as `dir/node_modules/posnorm` (what npm would install). */
export async function installPacked(dir, tarball) {
  const target = join(dir, 'node_modules', 'posnorm');
  await mkdir(target, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
}
