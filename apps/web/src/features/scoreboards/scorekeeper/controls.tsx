import type { ReactNode } from 'react';
import type { ScoreboardFields } from '@sagan/shared/scoreboard';
import type { BoardKind } from '@sagan/shared/sports';
import {
  FINAL,
  volleyballSetWinner,
  type CountField,
  type Intent,
  type Team,
} from '@sagan/shared/scorekeeping';

interface TeamControl {
  /** Shown on the button. */
  text: string;
  /** Read after the team's name ("Lions +2", "Lions foul"). */
  name: string;
  intent: (team: Team) => Intent;
  /** A take-back control: drawn quieter than the ones that count up. */
  minus?: boolean;
}

interface GameControl {
  text: string;
  name: string;
  intent: Intent;
  /** For a toggle: whether it is on now. */
  pressed?: boolean;
  minus?: boolean;
  /** Takes a whole row (a label with a team's name). */
  wide?: boolean;
}

const points = (...by: number[]): TeamControl[] =>
  by.map((n) => ({
    text: n > 0 ? `+${n}` : `−${-n}`,
    name: n > 0 ? `+${n}` : `−${-n}`,
    intent: (team) => ({ kind: 'score', team, by: n }),
    minus: n < 0,
  }));

const count = (field: (team: Team) => CountField, label: string): TeamControl[] => [
  {
    text: `${label} +`,
    name: `${label} +1`,
    intent: (team) => ({ kind: 'count', field: field(team), by: 1 }),
  },
  {
    text: `${label} −`,
    name: `${label} −1`,
    intent: (team) => ({ kind: 'count', field: field(team), by: -1 }),
    minus: true,
  },
];

const countPair = (field: CountField, label: string): GameControl[] => [
  {
    text: `${label} −`,
    name: `${label} −1`,
    intent: { kind: 'count', field, by: -1 },
    minus: true,
  },
  { text: `${label} +`, name: `${label} +1`, intent: { kind: 'count', field, by: 1 } },
];

const teamField =
  (suffix: 'Fouls' | 'Shots' | 'Saves' | 'ScoreGames') =>
  (team: Team): CountField =>
    `${team}${suffix}`;

/** The buttons each team gets, per board (SPEC §2: exactly the fields that board shows). */
function teamControls(kind: BoardKind, sportID: number): TeamControl[] {
  switch (kind) {
    case 'basic':
      return points(1, -1);
    case 'basketball':
      return [...points(1, 2, 3, -1), ...count(teamField('Fouls'), 'Foul')];
    case 'aussie': {
      const behind = sportID === 13 ? 'Point' : 'Behind';
      return [
        { text: 'Goal', name: 'goal', intent: (team) => ({ kind: 'goal', team, by: 1 }) },
        {
          text: behind,
          name: behind.toLowerCase(),
          intent: (team) => ({ kind: 'behind', team, by: 1 }),
        },
        {
          text: 'Goal −',
          name: 'goal −1',
          intent: (team) => ({ kind: 'goal', team, by: -1 }),
          minus: true,
        },
        {
          text: `${behind} −`,
          name: `${behind.toLowerCase()} −1`,
          intent: (team) => ({ kind: 'behind', team, by: -1 }),
          minus: true,
        },
      ];
    }
    case 'football':
      return points(1, 2, 3, 6, -1);
    case 'volleyball':
      return [
        ...points(1, -1),
        { text: 'Won set', name: 'won the set', intent: (team) => ({ kind: 'setWon', team }) },
        {
          text: 'Sets −',
          name: 'sets −1',
          intent: (team) => ({ kind: 'count', field: teamField('ScoreGames')(team), by: -1 }),
          minus: true,
        },
      ];
    case 'baseball':
      return [
        { text: 'Run', name: 'run', intent: (team) => ({ kind: 'score', team, by: 1 }) },
        {
          text: 'Run −',
          name: 'run −1',
          intent: (team) => ({ kind: 'score', team, by: -1 }),
          minus: true,
        },
      ];
    case 'tennis':
      return [{ text: 'Point', name: 'point', intent: (team) => ({ kind: 'tennisPoint', team }) }];
    case 'lacrosse':
      return [
        ...points(1, -1),
        ...count(teamField('Shots'), 'Shot'),
        ...count(teamField('Saves'), 'Save'),
        {
          text: 'Man-up',
          name: 'man-up',
          intent: (team) => ({
            kind: 'toggle',
            field: team === 'home' ? 'homeManUp' : 'awayManUp',
          }),
        },
      ];
  }
}

/** The buttons for the game as a whole (the count, the down, the bases, the serve...). */
function gameControls(kind: BoardKind, f: ScoreboardFields): GameControl[] {
  const possession = (what: string): GameControl => ({
    text: `${what}: ${f.homePossession ? f.homeTeamName : f.awayTeamName}`,
    name: `${what}: switch to ${f.homePossession ? f.awayTeamName : f.homeTeamName}`,
    intent: { kind: 'toggle', field: 'homePossession' },
    wide: true,
  });
  switch (kind) {
    case 'football':
      return [
        possession('Ball'),
        {
          text: '1st & 10',
          name: '1st and 10',
          intent: { kind: 'set', values: { down: 1, toGo: 10 } },
        },
        ...countPair('down', 'Down'),
        ...countPair('toGo', 'To go'),
        ...countPair('ballOn', 'Ball on'),
      ];
    case 'baseball':
      return [
        { text: 'Ball', name: 'ball', intent: { kind: 'pitch', call: 'ball' } },
        { text: 'Strike', name: 'strike', intent: { kind: 'pitch', call: 'strike' } },
        { text: 'Out', name: 'out', intent: { kind: 'pitch', call: 'out' } },
        // The line score's H and E: a hit also starts the next batter's count.
        { text: 'Hit', name: 'hit', intent: { kind: 'hit' } },
        { text: 'Error', name: 'error by the fielding team', intent: { kind: 'error' } },
        ...(['base1', 'base2', 'base3'] as const).map((field, i): GameControl => ({
          text: ['1st', '2nd', '3rd'][i]!,
          name: `runner on ${['1st', '2nd', '3rd'][i]!}`,
          intent: { kind: 'toggle', field },
          pressed: f[field],
        })),
        {
          text: 'Balls −',
          name: 'balls −1',
          intent: { kind: 'count', field: 'balls', by: -1 },
          minus: true,
        },
        {
          text: 'Strikes −',
          name: 'strikes −1',
          intent: { kind: 'count', field: 'strikes', by: -1 },
          minus: true,
        },
        {
          text: 'Outs −',
          name: 'outs −1',
          intent: { kind: 'count', field: 'outs', by: -1 },
          minus: true,
        },
        possession('Batting'),
      ];
    case 'tennis':
      return [possession('Serve')];
    default:
      return [];
  }
}

function Button({
  text,
  name,
  minus,
  pressed,
  wide,
  onClick,
}: {
  text: string;
  name: string;
  minus?: boolean;
  pressed?: boolean;
  wide?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={`sk-btn${minus ? ' sk-minus' : ''}${wide ? ' sk-wide' : ''}`}
      aria-label={name}
      aria-pressed={pressed}
      onClick={onClick}
    >
      {text}
    </button>
  );
}

/** Large touch targets around the board for exactly the fields of the game's sport. */
export function Controls({
  kind,
  game,
  onIntent,
  below,
}: {
  kind: BoardKind;
  game: ScoreboardFields;
  onIntent: (intent: Intent) => void;
  /** Shown under both teams' buttons, full width (who scored the tap just made). */
  below?: ReactNode;
}) {
  const perTeam = teamControls(kind, game.sportID);
  const forGame = gameControls(kind, game);
  // Volleyball: the rules say when a set is won; the scorer confirms it with one tap.
  const setWinner =
    kind === 'volleyball' && game.gamePeriod !== FINAL ? volleyballSetWinner(game) : null;
  const winnerName = setWinner === 'home' ? game.homeTeamName : game.awayTeamName;
  return (
    <div className="sk-controls">
      {setWinner && (
        <section className="sk-game sk-set-won" aria-label="Set won">
          <p role="status">
            {winnerName} {setWinner === 'home' ? game.homeScore : game.awayScore}–
            {setWinner === 'home' ? game.awayScore : game.homeScore}: the set is won by the rules.
          </p>
          <div className="sk-grid sk-grid-wide">
            <Button
              text={`${winnerName} won the set`}
              name={`Confirm: ${winnerName} won the set`}
              wide
              onClick={() => onIntent({ kind: 'setWon', team: setWinner })}
            />
          </div>
        </section>
      )}
      <div className="sk-teams">
        {(['home', 'away'] as const).map((team) => {
          const teamName = team === 'home' ? game.homeTeamName : game.awayTeamName;
          return (
            <section
              key={team}
              className={`sk-team sk-${team}`}
              aria-label={`${teamName} controls`}
            >
              <h2 className="sk-team-name">{teamName}</h2>
              <div className="sk-grid">
                {perTeam.map((c) => (
                  <Button
                    key={c.name}
                    text={c.text}
                    name={`${teamName} ${c.name}`}
                    minus={c.minus}
                    pressed={
                      c.name === 'man-up'
                        ? team === 'home'
                          ? game.homeManUp
                          : game.awayManUp
                        : undefined
                    }
                    onClick={() => onIntent(c.intent(team))}
                  />
                ))}
              </div>
            </section>
          );
        })}
      </div>
      {below}
      {forGame.length > 0 && (
        <section className="sk-game" aria-label="Game controls">
          {/* Football's controls come in −/+ pairs: two columns keep each pair on one row. */}
          <div className={`sk-grid${kind === 'football' ? '' : ' sk-grid-wide'}`}>
            {forGame.map((c) => (
              <Button
                key={c.name}
                text={c.text}
                name={c.name}
                minus={c.minus}
                pressed={c.pressed}
                wide={c.wide}
                onClick={() => onIntent(c.intent)}
              />
            ))}
          </div>
        </section>
      )}
    </div>
  );
}
