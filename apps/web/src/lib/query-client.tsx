import type { ComponentType } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { onAuthChange } from './auth.ts';

// TanStack Query serves the owner's screens (team sheets, play counts, the scorekeeper, the
// operators' page) and loads with them: a viewer's first load reads its data with realtime
// topics and lib/auth.ts's small stores instead (docs/decisions/0011).
const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});
// Screens reload their data when the auth status changes (SPEC §4).
onAuthChange(() => void queryClient.invalidateQueries());

/**
 * The page inside the browser's one query client. On the server the render's own client
 * (entry-server.tsx) is kept: one shared across requests would keep every page's queries.
 */
export function withQueries(Page: ComponentType): ComponentType {
  if (typeof window === 'undefined') return Page;
  return function WithQueries() {
    return (
      <QueryClientProvider client={queryClient}>
        <Page />
      </QueryClientProvider>
    );
  };
}
