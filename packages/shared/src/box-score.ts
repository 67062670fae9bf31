import { countedEvents, foldSteps, type LoggedEvent } from './game-log.ts';
import type { ScoreboardFields } from './scoreboard.ts';
import type { Team } from './scorekeeping.ts';

// DESIGN §10: who scored is a fold of the log, like the line score. A scoring tap may name its
// player, or a later `scorer` event names the player of a tap already made; what the tap
// changed on its team's score (as the fold applied it) is credited to that player. Voiding the
// tap or the naming takes the credit back; a held tap counts only where a decision placed it.

/**
 * One player's part of the score. Goals and behinds where the sport keeps them; in baseball
 * points are runs, and hits the batter's hits.
 */
export interface BoxLine {
  player: string;
  points: number;
  goals?: number;
  behinds?: number;
  hits?: number;
}

export interface BoxScore {
  home: BoxLine[];
  away: BoxLine[];
}

const SCORING = new Set(['score', 'goal', 'behind']);

/** Who each counted scoring tap is credited to: its own player, or the last naming of it. */
function creditsOf(events: readonly LoggedEvent[]): Map<string, { team: Team; player: string }> {
  const credits = new Map<string, { team: Team; player: string }>();
  for (const e of countedEvents(events)) {
    const b = e.body;
    if ((b.kind === 'score' || b.kind === 'goal' || b.kind === 'behind') && b.player) {
      credits.set(e.id, { team: b.team, player: b.player });
    } else if (b.kind === 'hit' && b.player && b.team) {
      credits.set(e.id, { team: b.team, player: b.player });
    } else if (b.kind === 'scorer' && b.target) {
      credits.set(b.target, { team: b.team, player: b.player });
    }
  }
  return credits;
}

/**
 * Each team's scorers, most points first (the first to score first among equals). A player
 * whose taps add up to nothing (a +2 and its −2) is left out.
 */
export function boxScore(start: ScoreboardFields, events: readonly LoggedEvent[]): BoxScore {
  const credits = creditsOf(events);
  const lines: Record<Team, Map<string, BoxLine>> = { home: new Map(), away: new Map() };
  const bodies = new Map(events.map((e) => [e.id, e.body]));
  const lineOf = (team: Team, player: string) => {
    let line = lines[team].get(player);
    if (!line) {
      line = { player, points: 0 };
      lines[team].set(player, line);
    }
    return line;
  };
  for (const step of foldSteps(start, events)) {
    const credit = credits.get(step.id);
    const kind = bodies.get(step.id)?.kind ?? '';
    if (credit && kind === 'hit') {
      // A hit is the batting team's where the fold placed it: a naming for the other team
      // (a held hit applied in another half) credits no one.
      const batting: Team = step.before.homePossession ? 'home' : 'away';
      if (credit.team === batting) {
        const line = lineOf(batting, credit.player);
        line.hits = (line.hits ?? 0) + 1;
      }
      continue;
    }
    if (!credit || !SCORING.has(kind)) continue;
    const { team, player } = credit;
    const line = lineOf(team, player);
    line.points += step.after[`${team}Score`] - step.before[`${team}Score`];
    const goals = step.after[`${team}ScoreGoals`] - step.before[`${team}ScoreGoals`];
    const behinds = step.after[`${team}ScorePoints`] - step.before[`${team}ScorePoints`];
    if (goals || behinds || line.goals !== undefined) {
      line.goals = (line.goals ?? 0) + goals;
      line.behinds = (line.behinds ?? 0) + behinds;
    }
  }
  const ranked = (team: Team) =>
    [...lines[team].values()]
      .filter(
        (l) =>
          l.points !== 0 || (l.goals ?? 0) !== 0 || (l.behinds ?? 0) !== 0 || (l.hits ?? 0) > 0,
      )
      .sort((a, b) => b.points - a.points || (b.hits ?? 0) - (a.hits ?? 0));
  return { home: ranked('home'), away: ranked('away') };
}
