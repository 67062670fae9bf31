import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import { groupNameSchema, locationLabel, nextLocation } from '@sagan/shared/teamsheet';
import { sortRoster } from '@sagan/shared/roster-view';
import type { TeamSheet } from '@sagan/shared/teamsheet-schemas';
import { Loading } from '../../components/loading.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { ErrorMessage } from '../../components/error-message.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { focusOnMount } from '../../components/focus-on-mount.ts';
import { useSaveGroup, useSetLocation, useTeam } from './api.ts';
import { PhotoJerseyCells, PlayerHeads } from './roster-table.tsx';
import { EditButton } from './edit-button.tsx';
import { FormFooter } from './form-footer.tsx';
import './teamsheets.css';

export default function GroupEditPage() {
  const { teamKey = '', groupKey } = useParams();
  const team = useTeam(teamKey);
  usePageTitle(groupKey ? 'Edit Group' : 'Add Group');
  if (team.loading) return <Loading />;
  // Refused (not this user's team, or no such team) or deleted: not found, either way.
  if (!team.data) return <NotFound what="team sheet" />;
  const group = groupKey ? team.data.groups.find((g) => g.groupKey === groupKey) : undefined;
  if (groupKey && !group) return <NotFound what="group" />;
  return (
    <GroupEditor
      key={groupKey ?? 'new'}
      sheet={team.data}
      groupKey={groupKey}
      groupName={group?.groupName ?? ''}
    />
  );
}

function GroupEditor({
  sheet,
  groupKey,
  groupName,
}: {
  sheet: TeamSheet;
  groupKey: string | undefined;
  groupName: string;
}) {
  const navigate = useNavigate();
  // SPEC §2: a new group starts in edit mode.
  const [editing, setEditing] = useState(!groupKey);
  const [name, setName] = useState(groupName);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveGroup(sheet.teamKey);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const parsed = groupNameSchema.safeParse({ groupName: name });
    if (!parsed.success) {
      setProblem('Please give the group a name');
      return;
    }
    setProblem(null);
    if (save.isPending) return;
    save.mutate(
      { groupKey, groupName: parsed.data.groupName },
      {
        onSuccess: (g) => {
          setEditing(false);
          if (!groupKey) {
            navigate(
              pathTo('teamsheetgroupedit', { teamKey: sheet.teamKey, groupKey: g.groupKey }),
              {
                replace: true,
              },
            );
          }
        },
      },
    );
  }

  return (
    <section className="page group-edit">
      <p>
        <Link to={pathTo('teamsheetedit', { teamKey: sheet.teamKey })}>← {sheet.teamName}</Link>
      </p>
      {editing ? (
        <form className="card" onSubmit={onSubmit} noValidate>
          <label htmlFor="groupName">The Group's Name</label>
          <input
            id="groupName"
            value={name}
            maxLength={60}
            required
            ref={focusOnMount}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={problem ? true : undefined}
          />
          <FormFooter
            problem={problem}
            error={save.error}
            pending={save.isPending}
            onCancel={() => {
              if (!groupKey) navigate(pathTo('teamsheetedit', { teamKey: sheet.teamKey }));
              else {
                setName(groupName);
                setEditing(false);
              }
            }}
          />
        </form>
      ) : (
        <div className="team-title">
          <h1>{groupName}</h1>
          <EditButton label="Edit group name" onClick={() => setEditing(true)} />
        </div>
      )}
      {/* SPEC §2: for a new group the table stays hidden until it is named. */}
      {groupKey && <MembershipTable sheet={sheet} groupKey={groupKey} />}
    </section>
  );
}

function MembershipTable({ sheet, groupKey }: { sheet: TeamSheet; groupKey: string }) {
  const setLocation = useSetLocation(sheet.teamKey, groupKey);
  const members = sheet.groupMembership[groupKey] ?? {};
  if (!sheet.roster.length) {
    return <p className="muted">Add players to the team first.</p>;
  }
  return (
    <>
      <p className="muted">Tap a player's status to change it: Sideline → Playing → Rested.</p>
      <ErrorMessage error={setLocation.error} />
      <div className="table-wrap">
        <table className="roster">
          <thead>
            <tr>
              <PlayerHeads />
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {sortRoster(sheet.roster).map((p) => {
              const location = members[p.key]?.location;
              const label = locationLabel(location);
              const pending = setLocation.isPending && setLocation.variables?.playerKey === p.key;
              return (
                <tr key={p.key}>
                  <PhotoJerseyCells player={p} />
                  <td>{p.playerName}</td>
                  <td>
                    <button
                      type="button"
                      className={`btn toggle ${label.toLowerCase()}`}
                      aria-label={`${p.playerName}: ${label}`}
                      disabled={pending}
                      onClick={() =>
                        setLocation.mutate({ playerKey: p.key, location: nextLocation(location) })
                      }
                    >
                      {label}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
