import type { ComponentType } from 'react';
import type { BoardKind } from '@sagan/shared/sports';
import { boardSpec } from '@sagan/shared/scoreboard-boards';
import type { PublicScoreboard } from '@sagan/shared/scoreboard-views';
import { BoardFrame, type BoardProps } from './board-frame.tsx';
import { AussieBoard } from './aussie-board.tsx';
import { BaseballBoard } from './baseball-board.tsx';
import { FootballBoard } from './football-board.tsx';
import { LacrosseBoard } from './lacrosse-board.tsx';
import { TennisBoard } from './tennis-board.tsx';

/**
 * A board of its own for a sport with extras; the frame alone where the spec's paired stat rows
 * say everything: Basic (name, period, clock, team names and scores), Basketball (fouls per
 * team) and Volleyball (sets and points).
 */
const BOARDS: Record<BoardKind, ComponentType<BoardProps>> = {
  basic: BoardFrame,
  basketball: BoardFrame,
  aussie: AussieBoard,
  football: FootballBoard,
  volleyball: BoardFrame,
  baseball: BaseballBoard,
  tennis: TennisBoard,
  lacrosse: LacrosseBoard,
};

/** SPEC §2 Boards by sport: the board for the game's sport id. */
export function Board({ game }: { game: PublicScoreboard }) {
  const spec = boardSpec(game.sportID);
  const Component = BOARDS[spec.kind];
  return <Component game={game} spec={spec} />;
}
