// Which files a page needs beyond what index.html already loads, read from Vite's build
// manifest, so the server-rendered page can fetch them at once instead of as a waterfall
// (index chunk → router → page chunk), and style the board before any script runs.

/** The part of a Vite manifest chunk we read (vite: ManifestChunk). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

function isManifest(m: unknown): m is Manifest {
  return (
    !!m &&
    typeof m === 'object' &&
    Object.values(m).every(
      (c: unknown) => !!c && typeof c === 'object' && typeof (c as ManifestChunk).file === 'string',
    )
  );
}

/** Every chunk reachable from key through static imports, key included. */
function closure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key) || !manifest[key]) return into;
  into.add(key);
  for (const dep of manifest[key].imports ?? []) closure(manifest, dep, into);
  return into;
}

const attr = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * `<link>` tags for the page module `src` (a manifest key such as
 * `src/features/scoreboards/scoreboard-page.tsx`): module preloads for its chunks and
 * stylesheets for its CSS, leaving out what the entry (index.html) already has. Vite's loader
 * finds these links by href and does not add them again.
 */
export function pageAssetLinks(manifest: unknown, src: string, base: string): string {
  if (!isManifest(manifest) || !manifest[src]) return '';
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  const loaded = entryKey ? closure(manifest, entryKey) : new Set<string>();
  const entryCss = new Set([...loaded].flatMap((k) => manifest[k]?.css ?? []));
  const js: string[] = [];
  const css = new Set<string>();
  for (const key of closure(manifest, src)) {
    const chunk = manifest[key]!;
    if (loaded.has(key)) continue;
    if (chunk.file.endsWith('.js')) js.push(chunk.file);
    for (const c of chunk.css ?? []) if (!entryCss.has(c)) css.add(c);
  }
  return [
    ...[...css].map((f) => `<link rel="stylesheet" crossorigin href="${attr(base + f)}">`),
    ...js.map((f) => `<link rel="modulepreload" crossorigin href="${attr(base + f)}">`),
  ].join('\n    ');
}
