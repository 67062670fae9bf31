import type { FastifyInstance } from 'fastify';

// The scoreboards feature's HTTP routes and realtime topics are registered here.
export default async function scoreboardsRoutes(_app: FastifyInstance): Promise<void> {}
