// Writes apps/web/src/lib/shapes.ts, viewer-shapes.ts and roster-shapes.ts, the shapes a fan's page
// reads without zod, derived from the shared zod schemas (apps/web/src/lib/shape-sources.ts).
// Run after changing one of those schemas; apps/web/src/lib/shape.test.ts fails until then.
//
//   node --import tsx scripts/web-shapes.ts
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SHAPE_FILES, shapeOf } from '../apps/web/src/lib/shape-sources.ts';
import type { Shape } from '../apps/web/src/lib/shape.ts';

/**
 * A part written once and named, where the file's shapes hold it more than once (a game's
 * scoreboard is in both the public topic and the owner's view): the file, and the viewer's
 * script, carry it once. Below this many characters of JSON a name saves nothing.
 */
const SHARED_PART_CHARS = 30;

const isShape = (v: unknown): v is Shape => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Calls visit on every shape within root (root included), with the name of the place it
 * stands in; does not go below the ones named.
 */
function walk(root: Shape, named: Map<string, string>, visit: (s: Shape, key: string) => void) {
  const go = (s: Shape, key: string, top: boolean) => {
    visit(s, key);
    if (!top && named.has(JSON.stringify(s))) return;
    for (const [k, p] of Object.entries(s.properties ?? {})) go(p, k, false);
    for (const branch of s.anyOf ?? []) go(branch, key, false);
    if (s.items) go(s.items, `${key}Item`, false);
    if (isShape(s.additionalProperties)) go(s.additionalProperties, `${key}Value`, false);
  };
  go(root, 'part', true);
}

/** The parts to name (JSON → name), largest first: each still held twice once the larger are. */
function sharedParts(shapes: Shape[]): Map<string, string> {
  const named = new Map<string, string>();
  const used = new Set<string>();
  for (;;) {
    const seen = new Map<string, { count: number; key: string }>();
    // Each named part's body counts once, as it is written once.
    const roots = [...shapes, ...[...named.keys()].map((j) => JSON.parse(j) as Shape)];
    for (const root of roots) {
      walk(root, named, (n, key) => {
        const json = JSON.stringify(n);
        if (n === root || named.has(json) || json.length < SHARED_PART_CHARS) return;
        const s = seen.get(json) ?? { count: 0, key };
        s.count++;
        seen.set(json, s);
      });
    }
    const next = [...seen]
      .filter(([, s]) => s.count > 1)
      .sort((a, b) => b[0].length - a[0].length)[0];
    if (!next) return named;
    const base = /^[a-z][A-Za-z0-9]*$/.test(next[1].key) ? next[1].key : 'part';
    let name = `${base}Shape`;
    for (let i = 2; used.has(name); i++) name = `${base}Shape${i}`;
    used.add(name);
    named.set(next[0], name);
  }
}

/**
 * The properties an object shape does not require, when its `required` lists the others in
 * their order (as zod writes it): `requireAll` rebuilds that list from these.
 */
function optionalOf(s: Shape): string[] | undefined {
  if (!s.properties || !s.required) return undefined;
  const keys = Object.keys(s.properties);
  const { required } = s;
  const rebuilt = keys.filter((k) => required.includes(k));
  if (JSON.stringify(rebuilt) !== JSON.stringify(required)) return undefined;
  return keys.filter((k) => !required.includes(k));
}

/**
 * The shape as source text, its named parts written as their names; an object's required
 * properties are written through `requireAll`, naming the few optional ones rather than
 * every required one a second time.
 */
function source(s: Shape, named: Map<string, string>, top = true): string {
  const name = top ? undefined : named.get(JSON.stringify(s));
  if (name) return name;
  const part = (p: Shape) => source(p, named, false);
  const optional = optionalOf(s);
  if (optional) {
    const rest = { ...s };
    delete rest.required;
    const except = optional.length > 0 ? `, ${JSON.stringify(optional)}` : '';
    return `requireAll(${source(rest, named, top)}${except})`;
  }
  const body = Object.entries(s).map(([k, v]: [string, unknown]) => {
    let text: string;
    if (k === 'properties') {
      const props = Object.entries(v as Record<string, Shape>);
      text = `{${props.map(([pk, p]) => `${JSON.stringify(pk)}: ${part(p)}`).join(', ')}}`;
    } else if (k === 'anyOf') text = `[${(v as Shape[]).map(part).join(', ')}]`;
    else if (k === 'items' || (k === 'additionalProperties' && isShape(v))) text = part(v as Shape);
    else text = JSON.stringify(v);
    return `${JSON.stringify(k)}: ${text}`;
  });
  return `{${body.join(', ')}}`;
}

const files = Object.entries(SHAPE_FILES).map(([name, sources]) => {
  const file = path.join(import.meta.dirname, '../apps/web/src/lib', name);
  const shapes = Object.entries(sources).map(([n, schema]) => [n, shapeOf(schema)] as const);
  const named = sharedParts(shapes.map(([, s]) => s));
  // Smallest first: a part is written after the parts it holds.
  const parts = [...named].reverse().map(([json, n]) => {
    return `const ${n}: Shape = ${source(JSON.parse(json) as Shape, named)};`;
  });
  const body = shapes.map(([n, s]) => `export const ${n}: Shape = ${source(s, named)};`);
  const all = [...parts, ...body];
  fs.writeFileSync(
    file,
    `// Generated by scripts/web-shapes.ts from the shared zod schemas (lib/shape-sources.ts): do not
// edit. Read with lib/shape.ts, so a viewer's first load checks what it reads without zod.
import ${all.some((t) => t.includes('requireAll(')) ? '{ requireAll, type Shape }' : 'type { Shape }'} from './shape.ts';

${all.join('\n\n')}
`,
  );
  return file;
});
const r = spawnSync('npx', ['prettier', '--write', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
