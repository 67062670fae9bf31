import { PencilIcon } from './icons.tsx';

/** The pencil beside a team's or a group's name that opens the form to change it. */
export function EditButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="icon-btn" aria-label={label} onClick={onClick}>
      <PencilIcon />
    </button>
  );
}
