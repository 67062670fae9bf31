import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { publicPrivacySchema, type PublicPrivacy } from '@sagan/shared/teamsheet-privacy';
import { api } from '../../lib/api.ts';

// Children's privacy: the owner picks what the public sheet shows. The server applies
// it, so visitors never receive the hidden names, photos or notes.
const privacyKey = (teamKey: string) => ['teamsheets', 'privacy', teamKey] as const;
const path = (teamKey: string) => `/teams/${encodeURIComponent(teamKey)}/privacy`;

const OPTIONS: [keyof PublicPrivacy, string][] = [
  ['initialsOnly', 'Show initials instead of full names'],
  ['hidePhotos', 'Hide photos'],
  ['hideNotes', 'Hide notes on the public sheet'],
];

export function PublicPrivacyOptions({ teamKey }: { teamKey: string }) {
  const qc = useQueryClient();
  const privacy = useQuery({
    queryKey: privacyKey(teamKey),
    queryFn: () => api('GET', path(teamKey), undefined, publicPrivacySchema),
  });
  // The box shows the click at once; a failed save puts it back and says so.
  const [draft, setDraft] = useState<PublicPrivacy | null>(null);
  const save = useMutation({
    mutationFn: (next: PublicPrivacy) => api('PUT', path(teamKey), next, publicPrivacySchema),
    onSuccess: (saved) => qc.setQueryData(privacyKey(teamKey), saved),
    onSettled: () => setDraft(null),
  });
  const current = draft ?? privacy.data;
  const change = (patch: Partial<PublicPrivacy>) => {
    if (!current) return;
    const next = { ...current, ...patch };
    setDraft(next);
    save.mutate(next);
  };

  return (
    <fieldset className="card privacy-options">
      <legend>On the public sheet</legend>
      {privacy.error ? (
        <p className="form-error" role="alert">
          {privacy.error.message}
        </p>
      ) : (
        <>
          {OPTIONS.map(([option, label]) => (
            <label className="check" key={option}>
              <input
                type="checkbox"
                checked={current?.[option] ?? false}
                disabled={!current}
                onChange={(e) => change({ [option]: e.target.checked })}
              />
              {label}
            </label>
          ))}
          <p className="help">
            Applies at once to the public page and its player pages. You still see everything here.
          </p>
          <p role="status" className={save.error ? 'form-error' : 'form-ok'}>
            {save.error ? `Could not save: ${save.error.message}` : save.isSuccess ? 'Saved' : ''}
          </p>
        </>
      )}
    </fieldset>
  );
}
