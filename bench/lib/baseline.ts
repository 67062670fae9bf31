// A baseline build for paired benchmark runs: another git ref's server, started next to this
// checkout's in the same run, so every comparison is same machine, same minute.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './procs.ts';

export interface Build {
  name: string;
  cwd: string;
}

/** A checkout of `ref` in .tmp with this checkout's dependencies, to run its server. */
export function baselineCheckout(ref: string): { build: Build; remove(): void } {
  const sha = execFileSync('git', ['rev-parse', ref], { cwd: root, encoding: 'utf8' }).trim();
  const dir = path.join(root, '.tmp', `baseline-${sha.slice(0, 12)}`);
  if (!fs.existsSync(dir)) {
    execFileSync('git', ['worktree', 'add', '--detach', '-q', dir, sha], { cwd: root });
  }
  const nm = path.join(dir, 'node_modules');
  // A baseline whose dependencies differ from this checkout's (a package since dropped, say)
  // gets its own, installed once from its own lock.
  const sameLock =
    fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8') ===
    fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8');
  const ownInstall = path.join(nm, '.baseline-own-install');
  if (!sameLock) {
    if (!fs.existsSync(ownInstall)) {
      fs.rmSync(nm, { recursive: true, force: true });
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'ignore' });
      fs.writeFileSync(ownInstall, '');
    }
    return baselineBuild(ref, sha, dir);
  }
  // Every dependency from here, except the workspace packages, which must be the baseline's.
  fs.mkdirSync(path.join(nm, '@sagan'), { recursive: true });
  for (const entry of fs.readdirSync(path.join(root, 'node_modules'))) {
    const link = path.join(nm, entry);
    if (entry === '@sagan' || fs.existsSync(link)) continue;
    fs.symlinkSync(path.join(root, 'node_modules', entry), link);
  }
  for (const [name, rel] of [
    ['shared', 'packages/shared'],
    ['server', 'apps/server'],
    ['web', 'apps/web'],
  ]) {
    const link = path.join(nm, '@sagan', name!);
    if (!fs.existsSync(link)) fs.symlinkSync(path.join(dir, rel!), link);
  }
  return baselineBuild(ref, sha, dir);
}

function baselineBuild(ref: string, sha: string, dir: string) {
  return {
    build: { name: `baseline ${ref} (${sha.slice(0, 7)})`, cwd: dir },
    remove: () => {
      execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: root });
    },
  };
}
