import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { defaultScoreboard } from '@sagan/shared/scoreboard';
import { reader, type Shape } from './shape.ts';
import { SHAPE_SOURCES, shapeOf } from './shape-sources.ts';
import * as shellShapes from './shapes.ts';
import * as viewerShapes from './viewer-shapes.ts';
import * as rosterShapes from './roster-shapes.ts';
import * as listShapes from './list-shapes.ts';
import * as playCountShapes from './playcount-shapes.ts';

const shapes = {
  ...shellShapes,
  ...viewerShapes,
  ...rosterShapes,
  ...listShapes,
  ...playCountShapes,
};

type Name = keyof typeof SHAPE_SOURCES;
const names = Object.keys(SHAPE_SOURCES) as Name[];

/** A valid value of s: its default, else the first non-null choice at its smallest. */
function sample(s: Shape): unknown {
  if (s.default !== undefined) return s.default;
  if (s.anyOf) return sample(s.anyOf.find((b) => b.type !== 'null') ?? s.anyOf[0]!);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return 'a'.repeat(Math.max(1, s.minLength ?? 0));
    case 'integer':
    case 'number':
      return Math.max(
        s.minimum ?? 0,
        s.exclusiveMinimum === undefined ? 0 : s.exclusiveMinimum + 1,
      );
    case 'boolean':
      return true;
    case 'array':
      return s.items ? [sample(s.items)] : [];
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, p]) => [k, sample(p)]));
    default:
      return null;
  }
}

/** Every path to a value inside v (the root is []). */
function paths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...at, i])));
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
  return out;
}

const DELETE = Symbol('delete');
/** v with the value at path replaced (or deleted): a copy. */
function replaced(v: unknown, path: (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  const copy = structuredClone(v) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (by === DELETE) delete parent[last];
  else parent[last] = by;
  return copy;
}

/** Wrong and edge values put in every place of a valid sample. */
const PROBES: unknown[] = [
  DELETE,
  null,
  '',
  'a',
  'a'.repeat(3000),
  0,
  -1,
  1.5,
  2_000_000,
  true,
  {},
  [],
  [1],
];

/**
 * zod refused v only for what a shape does not say (shape.ts): a string format (the image
 * URL's) or a refinement. The reader may accept such a value; it must agree on everything else.
 */
function refusedOnlyForUnsaid(error: z.ZodError): boolean {
  return error.issues.every((i) => i.code === 'invalid_format' || i.code === 'custom');
}

function expectAgreement(name: Name, value: unknown) {
  const zodAnswer = SHAPE_SOURCES[name].safeParse(value);
  const shapeAnswer = reader(shapes[name]).safeParse(value);
  const where = `${name}: ${JSON.stringify(value)?.slice(0, 300)}`;
  if (zodAnswer.success) {
    expect(shapeAnswer.success, where).toBe(true);
    expect(shapeAnswer.success && shapeAnswer.data, where).toEqual(zodAnswer.data);
  } else if (!refusedOnlyForUnsaid(zodAnswer.error)) {
    expect(shapeAnswer.success, where).toBe(false);
  }
}

describe('viewer shapes', () => {
  it('shapes.ts and viewer-shapes.ts are what the shared schemas derive today (else: node --import tsx scripts/web-shapes.ts)', () => {
    expect(Object.keys(shapes).sort()).toEqual([...names].sort());
    for (const name of names) expect(shapes[name], name).toEqual(shapeOf(SHAPE_SOURCES[name]));
  });

  it.each(names)('%s: read as its zod schema reads, every place of a sample probed', (name) => {
    const valid = sample(shapes[name]);
    expect(SHAPE_SOURCES[name].safeParse(valid).success).toBe(true);
    expectAgreement(name, valid);
    let refused = 0;
    for (const path of paths(valid)) {
      for (const probe of PROBES) {
        const value = replaced(valid, path, probe);
        expectAgreement(name, value);
        if (!SHAPE_SOURCES[name].safeParse(value).success) refused++;
      }
    }
    // The probes reach the schema's refusals, not only values both accept.
    expect(refused).toBeGreaterThan(0);
  });

  it('a game as the server sends it: defaults filled in and unknown keys dropped, as zod does', () => {
    const game = {
      top: { ...defaultScoreboard, gameKey: 'g1', timeStamp: 1, extra: 'dropped' },
      comments: [{ gameComment: 'Great save', id: '1', timeStamp: 2 }],
      tags: [{ key: 't', name: 'Under 12' }],
    };
    expectAgreement('gameTopic', game);
    const read = reader(shapes.gameTopic).parse(game) as z.output<typeof SHAPE_SOURCES.gameTopic>;
    expect(read?.comments[0]).toMatchObject({ homeTeamName: '', homeScore: 0, imageURL: '' });
    expect(read?.top).not.toHaveProperty('extra');
    expectAgreement('gameTopic', null);
    expectAgreement('gameTopic', { ...game, top: { ...game.top, homeScore: '3' } });
    expectAgreement('gameTopic', {
      ...game,
      top: { ...game.top, homeScorePointsTennis: '50' },
    });
  });

  it('a published team sheet: its group membership (a record of records) read as zod reads it', () => {
    const sheet = {
      publishedAsKey: 'p1',
      teamName: 'Wanderers',
      teamNotes: '',
      roster: [{ key: 'k1', jersey: '7', playerName: 'Zoë', playerNotes: '', imageURL: '' }],
      groups: [{ groupKey: 'g1', key: 'g1', groupName: 'Saturday' }],
      groupMembership: { g1: { k1: { location: 1, playerKey: 'k1', extra: 'dropped' } } },
    };
    expectAgreement('rosterTopic', sheet);
    const read = reader(shapes.rosterTopic).parse(sheet) as z.output<
      typeof SHAPE_SOURCES.rosterTopic
    >;
    expect(read?.groupMembership).toEqual({ g1: { k1: { location: 1, playerKey: 'k1' } } });
    for (const bad of [1.5, '1', null]) {
      const value = {
        ...sheet,
        groupMembership: { g1: { k1: { location: bad, playerKey: 'k1' } } },
      };
      expectAgreement('rosterTopic', value);
      expect(reader(shapes.rosterTopic).safeParse(value).success, String(bad)).toBe(false);
    }
    expectAgreement('rosterTopic', { ...sheet, groupMembership: { g1: 'k1' } });
    expectAgreement('rosterTopic', null);
  });

  it("the follow check reads only whether the viewer follows, from the sheet's whole answer", () => {
    const answer = { publishedAsKey: 'p1', teamName: 'Wanderers', followed: true };
    expect(reader(shapes.rosterFollowed).parse(answer)).toEqual({ followed: true });
    expect(reader(shapes.rosterFollowed).parse({ followed: null })).toEqual({ followed: null });
    expect(reader(shapes.rosterFollowed).safeParse({ followed: 'yes' }).success).toBe(false);
    expect(reader(shapes.rosterFollowed).safeParse({}).success).toBe(false);
  });

  it('a key in a URL: the same keys pass', () => {
    for (const key of ['abc', '-Mx3abc_Z', '', 'a b', 'a/b', 'é', 'a'.repeat(64), 'a'.repeat(65)])
      expectAgreement('key', key);
  });

  it('parse throws on what safeParse refuses', () => {
    expect(() => reader(shapes.sessionUser).parse({ uid: 1, displayName: null })).toThrow();
    expect(reader(shapes.sessionUser).parse({ uid: 'u', displayName: null })).toEqual({
      uid: 'u',
      displayName: null,
    });
  });
});
