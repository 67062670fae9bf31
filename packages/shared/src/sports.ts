// SPEC §3 Sport: id → name; any other id is 'New Sport'.
export const SPORTS: Readonly<Record<number, string>> = {
  1: 'Basic',
  2: 'Basketball',
  3: 'Soccer',
  4: 'Aussie Rules',
  5: 'Football',
  6: 'Volleyball',
  7: 'Baseball',
  8: 'Tennis',
  9: 'Rugby',
  10: 'Lacrosse',
  11: 'Water Polo',
  12: 'HockeyIce',
  13: 'Gaelic',
};

export function sportName(sportID: number): string {
  return SPORTS[sportID] ?? 'New Sport';
}

export type BoardKind =
  | 'basic'
  | 'basketball'
  | 'aussie'
  | 'football'
  | 'volleyball'
  | 'baseball'
  | 'tennis'
  | 'lacrosse';

// SPEC §2 Boards by sport: Basic also serves 1, 3, 9, 11, 12 and unknown ids;
// Aussie Rules and Gaelic share the goals/behinds board.
const BOARD_BY_SPORT: Readonly<Record<number, BoardKind>> = {
  2: 'basketball',
  4: 'aussie',
  13: 'aussie',
  5: 'football',
  6: 'volleyball',
  7: 'baseball',
  8: 'tennis',
  10: 'lacrosse',
};

export function boardKind(sportID: number): BoardKind {
  return BOARD_BY_SPORT[sportID] ?? 'basic';
}
