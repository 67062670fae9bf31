import type { FastifyInstance } from 'fastify';

// The teamsheets feature's HTTP routes and realtime topics are registered here.
export default async function teamsheetsRoutes(_app: FastifyInstance): Promise<void> {}
