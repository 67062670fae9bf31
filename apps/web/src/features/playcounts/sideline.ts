import { useEffect, useMemo, useState } from 'react';
import type { PlayCountGame } from '@sagan/shared/playcount';
import { appendSnap, undoLastSnap } from '@sagan/shared/playcount-sideline';
import { useOutbox, type OutboxItem, type OutboxStream } from '../../lib/outbox.ts';

/** What a tap on the sideline screen queues: a snap of who is on the field, or an undo. */
export type SidelineIntent =
  { kind: 'snap'; quarter: number; groupName: string; players: string[] } | { kind: 'undo' };

interface LiveGame {
  game: PlayCountGame;
  seq: number;
}

const enc = encodeURIComponent;

/**
 * The sideline screen's outbox stream (DESIGN §9): one request per intent, under the intent's
 * Idempotency-Key, so a retry never counts a snap twice. A snap is an append and an undo
 * removes the last one whatever it is, so neither needs the state it was tapped against.
 */
function sidelineStream(gameKey: string): OutboxStream<SidelineIntent, LiveGame> {
  return {
    name: `playcount:${gameKey}`,
    build: (intent) =>
      intent.kind === 'snap'
        ? {
            method: 'POST',
            path: `/playcounts/${enc(gameKey)}/snaps`,
            body: { quarter: intent.quarter, groupName: intent.groupName, players: intent.players },
          }
        : { method: 'DELETE', path: `/playcounts/${enc(gameKey)}/snaps/last` },
    // Snaps are never in conflict; a 409 (a full count) is final.
    stateFrom409: () => null,
    seqOf: (state) => state.seq,
  };
}

/** The game as the live topic shows it with the intents not yet confirmed applied on top. */
export function withPending(
  game: PlayCountGame,
  items: readonly OutboxItem<SidelineIntent>[],
): PlayCountGame {
  let { roster, snaps } = game;
  for (const { intent } of items) {
    if (intent.kind === 'undo') {
      const next = undoLastSnap(roster, snaps);
      if (next) ({ roster, snaps } = next);
    } else {
      const next = appendSnap(roster, snaps, intent);
      if (typeof next !== 'string') ({ roster, snaps } = next);
    }
  }
  return { ...game, roster, snaps };
}

export function useSidelineOutbox(gameKey: string, game: PlayCountGame | undefined, seq?: number) {
  const stream = useMemo(() => sidelineStream(gameKey), [gameKey]);
  const live = useMemo(() => (game && seq !== undefined ? { game, seq } : null), [game, seq]);
  return useOutbox(stream, live);
}

/**
 * Who is on the field, kept on this device per count so a reload (or a dead battery swap to
 * the same phone) keeps the lineup; until the coach sets one, the count's own locations.
 */
export function useOnField(gameKey: string, game: PlayCountGame | undefined) {
  const storageKey = `sagan-onfield:${gameKey}`;
  const [onField, setOnField] = useState<string[] | null>(() => {
    try {
      const saved = localStorage.getItem(storageKey);
      const parsed: unknown = saved ? JSON.parse(saved) : null;
      return Array.isArray(parsed)
        ? parsed.filter((k): k is string => typeof k === 'string')
        : null;
    } catch {
      return null;
    }
  });
  useEffect(() => {
    if (onField === null) return;
    try {
      localStorage.setItem(storageKey, JSON.stringify(onField));
    } catch {
      // Private mode or a full store: the lineup lives as long as the page.
    }
  }, [storageKey, onField]);
  const current = onField ?? game?.roster.filter((p) => p.location === 1).map((p) => p.key) ?? [];
  return [current, setOnField] as const;
}
