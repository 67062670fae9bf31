import { Icon, ToggleIcon } from '../../components/icon.tsx';

export function PencilIcon() {
  return (
    <Icon size={18}>
      <path
        fill="currentColor"
        d="M3 17.25V21h3.75L17.81 9.94l-3.75-3.75L3 17.25zm17.71-10.21a1 1 0 0 0 0-1.41l-2.34-2.34a1 1 0 0 0-1.41 0l-1.83 1.83 3.75 3.75 1.83-1.83z"
      />
    </Icon>
  );
}

export function StarIcon({ filled }: { filled: boolean }) {
  return (
    <ToggleIcon
      filled={filled}
      d="M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z"
    />
  );
}
