import { Icon, ToggleIcon } from '../../../components/icon.tsx';

export function BookmarkIcon({ filled }: { filled: boolean }) {
  return <ToggleIcon filled={filled} d="M6 3h12a1 1 0 0 1 1 1v17l-7-4.5L5 21V4a1 1 0 0 1 1-1z" />;
}

export function FollowIcon({ filled }: { filled: boolean }) {
  return (
    <ToggleIcon
      filled={filled}
      d="M12 21s-7.5-4.6-9.3-9.1C1.4 8.6 3.5 5 7 5c2 0 3.3 1.1 5 3 1.7-1.9 3-3 5-3 3.5 0 5.6 3.6 4.3 6.9C19.5 16.4 12 21 12 21z"
    />
  );
}

export function EyeIcon() {
  return (
    <Icon size={18}>
      <path
        d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      />
      <circle cx="12" cy="12" r="3" fill="currentColor" />
    </Icon>
  );
}
