import { useId, useState, type FormEvent } from 'react';
import type { LinkedSheet } from '@sagan/shared/game-sheets';
import type { Team } from '@sagan/shared/scorekeeping';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { Loading } from '../../../components/loading.tsx';
import { useGameSheets, useLinkSheet, useMyTeams } from './api.ts';
import { ButtonRow } from '../../../components/button-row.tsx';

/**
 * Who scored the tap just made (or, in baseball, who got the hit): one tap on a player of the
 * team's sheet, or none at all. The tap itself is already on its way; this only names its
 * player (DESIGN §10).
 */
export function ScorerPick({
  teamName,
  sheet,
  hit = false,
  onPick,
  onSkip,
}: {
  teamName: string;
  sheet: LinkedSheet;
  hit?: boolean;
  onPick: (playerKey: string) => void;
  onSkip: () => void;
}) {
  const question = hit ? `Who got the hit for ${teamName}?` : `Who scored for ${teamName}?`;
  return (
    <div className="sk-scorer" role="group" aria-label={question}>
      <p className="sk-scorer-q">{question}</p>
      <div className="sk-scorer-players">
        {sheet.players.map((p) => (
          <button
            key={p.playerKey}
            type="button"
            className="sk-btn sk-scorer-btn"
            aria-label={`${p.playerName}, ${p.jersey ? `#${p.jersey}` : 'no number'}, ${hit ? 'got the hit' : 'scored'}`}
            onClick={() => onPick(p.playerKey)}
          >
            {p.jersey && <span className="sk-jersey">#{p.jersey}</span>} {p.playerName}
          </button>
        ))}
        <button type="button" className="sk-btn sk-minus sk-scorer-btn" onClick={onSkip}>
          Skip
        </button>
      </div>
    </div>
  );
}

function SideLink({
  gameKey,
  side,
  teamName,
  linked,
  teams,
}: {
  gameKey: string;
  side: Team;
  teamName: string;
  linked: LinkedSheet | null;
  teams: { teamKey: string; teamName: string }[];
}) {
  const link = useLinkSheet(gameKey);
  const [choice, setChoice] = useState(linked?.teamKey ?? '');
  const id = useId();
  function submit(e: FormEvent) {
    e.preventDefault();
    link.mutate({ side, teamKey: choice || null });
  }
  return (
    <form onSubmit={submit} noValidate className="sk-sheet-link">
      <label htmlFor={id}>{teamName}</label>
      <select
        id={id}
        value={choice}
        onChange={(e) => {
          setChoice(e.target.value);
          link.reset();
        }}
      >
        <option value="">No team sheet</option>
        {teams.map((t) => (
          <option key={t.teamKey} value={t.teamKey}>
            {t.teamName}
          </option>
        ))}
      </select>
      {linked && linked.teamKey === null && (
        <p className="help">
          Linked to “{linked.teamName}”, a sheet since deleted: its players are kept.
        </p>
      )}
      <ErrorMessage error={link.error} />
      <ButtonRow done={link.isSuccess && (choice ? 'Linked' : 'Unlinked')}>
        <button type="submit" className="btn" disabled={link.isPending}>
          Save
        </button>
      </ButtonRow>
    </form>
  );
}

/**
 * The owner links each team to one of their team sheets, so the scorer can say who scored and
 * the board shows the scorers (with the sheet's privacy: initials only, if it says so).
 */
export function SheetsPanel({
  gameKey,
  homeTeamName,
  awayTeamName,
}: {
  gameKey: string;
  homeTeamName: string;
  awayTeamName: string;
}) {
  const sheets = useGameSheets(gameKey);
  const teams = useMyTeams();
  if (sheets.isPending || teams.isPending) return <Loading />;
  if (sheets.error) return <ErrorMessage error={sheets.error} />;
  if (teams.error) return <ErrorMessage error={teams.error} />;
  const mine = teams.data.mine.map((t) => ({ teamKey: t.teamKey, teamName: t.teamName }));
  return (
    <>
      <p className="help">
        Link a team to one of your team sheets: after each score, tap who scored (or Skip). The
        board lists the scorers, as the sheet&apos;s privacy allows.
      </p>
      {!mine.length && <p className="muted">You have no team sheets yet.</p>}
      <SideLink
        gameKey={gameKey}
        side="home"
        teamName={homeTeamName}
        linked={sheets.data.home}
        teams={mine}
      />
      <SideLink
        gameKey={gameKey}
        side="away"
        teamName={awayTeamName}
        linked={sheets.data.away}
        teams={mine}
      />
    </>
  );
}
