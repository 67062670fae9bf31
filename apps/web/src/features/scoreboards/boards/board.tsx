import type { ComponentType } from 'react';
import type { BoardKind } from '@sagan/shared/sports';
import { boardSpec } from '@sagan/shared/scoreboard-boards';
import type { PublicScoreboard } from '@sagan/shared/scoreboard-views';
import type { BoardProps } from './board-frame.tsx';
import { AussieBoard } from './aussie-board.tsx';
import { BaseballBoard } from './baseball-board.tsx';
import { BasicBoard } from './basic-board.tsx';
import { BasketballBoard } from './basketball-board.tsx';
import { FootballBoard } from './football-board.tsx';
import { LacrosseBoard } from './lacrosse-board.tsx';
import { TennisBoard } from './tennis-board.tsx';
import { VolleyballBoard } from './volleyball-board.tsx';

const BOARDS: Record<BoardKind, ComponentType<BoardProps>> = {
  basic: BasicBoard,
  basketball: BasketballBoard,
  aussie: AussieBoard,
  football: FootballBoard,
  volleyball: VolleyballBoard,
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
