// The download lives in lib/, shared with the team sheet's season points.
export { downloadText } from '../../lib/download.ts';
