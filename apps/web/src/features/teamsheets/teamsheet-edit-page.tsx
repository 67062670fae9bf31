import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import { TEAM_NAME_MAX, teamInputSchema } from '@sagan/shared/teamsheet';
import { NEW_PLAYER_KEY, type TeamSheet } from '@sagan/shared/teamsheet-schemas';
import { Loading } from '../../components/loading.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { ErrorMessage } from '../../components/error-message.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { useDeleteTeam, usePublish, useSaveTeam, useTeam, useUnpublish } from './api.ts';
import { RosterTable } from './roster-table.tsx';
import { ShareLink } from './share-link.tsx';
import { ConfirmDelete } from './confirm-delete.tsx';
import { PublicPrivacyOptions } from './public-privacy.tsx';
import { EditButton } from './edit-button.tsx';
import { FormFooter } from './form-footer.tsx';
import { WriteButton } from '../../components/write-button.tsx';
import { checked } from '../../lib/checked.ts';
import './teamsheets.css';

export default function TeamSheetEditPage() {
  const { teamKey = '' } = useParams();
  const team = useTeam(teamKey);
  usePageTitle(team.data ? `Edit ${team.data.teamName}` : 'Edit team sheet');
  if (team.loading) return <Loading />;
  // Refused (not this user's team, or no such team) or deleted: not found, either way.
  if (!team.data) return <NotFound what="team sheet" />;
  return <Editor sheet={team.data} />;
}

function Editor({ sheet }: { sheet: TeamSheet }) {
  const { teamKey } = sheet;
  const [editing, setEditing] = useState(false);
  const publish = usePublish(teamKey);
  const unpublish = useUnpublish(teamKey);
  // Publishing and unpublishing undo each other: each starts alone, clearing the other's last
  // answer, so that what shows below the buttons is what the latest one did.
  const alone = (start: { mutate: () => void }, clear: { reset: () => void }) => () => {
    clear.reset();
    start.mutate();
  };

  return (
    <section className="page teamsheet-edit">
      <p className="private-note">
        This page is private: only you can see and change it. Publish to share a copy.
      </p>
      {editing ? (
        <TeamForm
          sheet={sheet}
          onDone={() => setEditing(false)}
          // SPEC §4: cancel shows the sheet as stored, which the live topic keeps current.
          onCancel={() => setEditing(false)}
        />
      ) : (
        <header className="team-head">
          <div className="team-title">
            <h1>{sheet.teamName}</h1>
            <EditButton label="Edit team name and notes" onClick={() => setEditing(true)} />
          </div>
          <p className="team-notes">{sheet.teamNotes}</p>
        </header>
      )}

      <div className="btn-row">
        <WriteButton write={publish} className="btn primary" onClick={alone(publish, unpublish)}>
          Publish
        </WriteButton>
        <Link
          className="btn"
          to={pathTo('teamsheetplayeredit', { teamKey, playerKey: NEW_PLAYER_KEY })}
        >
          Add Player
        </Link>
        <Link className="btn" to={pathTo('teamsheetbulk', { teamKey })}>
          Bulk Upload
        </Link>
        <Link className="btn" to={`${pathTo('playcountnew')}?team=${encodeURIComponent(teamKey)}`}>
          Count plays
        </Link>
        <Link className="btn" to={pathTo('playcountseason', { teamKey })}>
          Season plays
        </Link>
        <Link className="btn" to={pathTo('scoringseason', { teamKey })}>
          Season points
        </Link>
        {sheet.publishedAsKey && (
          <WriteButton write={unpublish} className="btn danger" onClick={alone(unpublish, publish)}>
            Unpublish
          </WriteButton>
        )}
      </div>
      {/* DESIGN §8: the public copy follows every edit; the owner is told so. */}
      <p className="publish-state muted">
        {sheet.publishedAsKey
          ? 'Published: changes show on the public sheet at once.'
          : 'Not published: only you can see this sheet.'}
      </p>
      {/* DESIGN §8: 'Published Successfully' only when it worked. */}
      <div aria-live="polite">
        {publish.isSuccess && <p className="form-ok">Published Successfully</p>}
        {unpublish.isSuccess && (
          <p className="form-ok">Unpublished: the public link no longer works.</p>
        )}
      </div>
      {publish.error && (
        <p className="form-error" role="alert">
          Publishing failed: {publish.error.message}
        </p>
      )}
      <ErrorMessage error={unpublish.error} />
      <ShareLink publishedAsKey={sheet.publishedAsKey} />

      <h2>Roster</h2>
      {sheet.roster.length === 0 ? (
        <p className="muted">No players yet. Add them one by one or use Bulk Upload.</p>
      ) : (
        <RosterTable
          caption="Roster"
          roster={sheet.roster}
          groups={sheet.groups}
          membership={sheet.groupMembership}
          action={(p) => (
            <Link
              to={pathTo('teamsheetplayeredit', { teamKey, playerKey: p.key })}
              aria-label={`Edit ${p.playerName}`}
            >
              Edit
            </Link>
          )}
        />
      )}

      <h2>Groups</h2>
      <div className="btn-row groups">
        {sheet.groups.map((g) => (
          <Link
            key={g.groupKey}
            className="btn"
            to={pathTo('teamsheetgroupedit', { teamKey, groupKey: g.groupKey })}
          >
            {g.groupName}
          </Link>
        ))}
        <Link className="btn" to={pathTo('teamsheetgroupedit', { teamKey })}>
          Add Group
        </Link>
      </div>

      <h2>Privacy</h2>
      <PublicPrivacyOptions teamKey={teamKey} />

      <DeleteTeam teamKey={teamKey} teamName={sheet.teamName} />
    </section>
  );
}

function DeleteTeam({ teamKey, teamName }: { teamKey: string; teamName: string }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteTeam(teamKey);
  const navigate = useNavigate();
  return (
    <div className="delete-team">
      {!confirming ? (
        <button type="button" className="btn danger" onClick={() => setConfirming(true)}>
          Delete team
        </button>
      ) : (
        <ConfirmDelete
          id="delete-team-text"
          question={`Delete ${teamName}? Its players, groups, photos and public sheet are deleted for good.`}
          yes="Yes, delete team"
          pending={remove.isPending}
          error={remove.error}
          onYes={() =>
            void remove.mutateAsync().then(
              () => navigate(pathTo('teamsheets')),
              () => undefined,
            )
          }
          onNo={() => setConfirming(false)}
        />
      )}
    </div>
  );
}

function TeamForm({
  sheet,
  onDone,
  onCancel,
}: {
  sheet: TeamSheet;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [teamName, setTeamName] = useState(sheet.teamName);
  const [teamNotes, setTeamNotes] = useState(sheet.teamNotes);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveTeam(sheet.teamKey);
  const tooLong = teamName.length > TEAM_NAME_MAX;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const team = checked(
      teamInputSchema,
      { teamName, teamNotes },
      setProblem,
      'Please check the form',
    );
    if (team) save.mutate(team, { onSuccess: onDone });
  }

  return (
    <form className="card team-form" onSubmit={onSubmit} noValidate>
      <label htmlFor="teamName">The Team's Name</label>
      {/* No maxLength: a pasted long name would be cut without a word. The counter shows the
          limit, and saving a longer one says so. */}
      <input
        id="teamName"
        value={teamName}
        required
        onChange={(e) => setTeamName(e.target.value)}
        aria-describedby="teamName-help teamName-count"
        aria-invalid={problem || tooLong ? true : undefined}
      />
      <p id="teamName-help" className="help">
        You can change it at any time.
      </p>
      <p id="teamName-count" className={tooLong ? 'counter form-error' : 'counter help'}>
        {teamName.length} / {TEAM_NAME_MAX} characters
      </p>
      <label htmlFor="teamNotes">Notes for the team</label>
      <textarea
        id="teamNotes"
        rows={6}
        value={teamNotes}
        maxLength={2000}
        onChange={(e) => setTeamNotes(e.target.value)}
        aria-describedby="teamNotes-help"
      />
      <p id="teamNotes-help" className="help">
        This will be displayed under the team name.
      </p>
      <FormFooter
        problem={problem}
        error={save.error}
        pending={save.isPending}
        onCancel={onCancel}
      />
    </form>
  );
}
