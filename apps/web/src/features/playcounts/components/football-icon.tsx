/** Marks a player who was in a snap (SPEC §2); inline SVG, no icon library. */
export function FootballIcon({ label = 'In this snap' }: { label?: string }) {
  return (
    <svg
      className="pc-football"
      viewBox="0 0 24 16"
      width="22"
      height="15"
      role="img"
      aria-label={label}
    >
      <ellipse cx="12" cy="8" rx="11" ry="7" fill="#8b4513" />
      <path
        d="M3.2 4.2 Q5 8 3.2 11.8 M20.8 4.2 Q19 8 20.8 11.8"
        stroke="#fff"
        strokeWidth="1"
        fill="none"
      />
      <path
        d="M8 8h8M9.5 6.4v3.2M12 6.4v3.2M14.5 6.4v3.2"
        stroke="#fff"
        strokeWidth="1.1"
        strokeLinecap="round"
      />
    </svg>
  );
}
