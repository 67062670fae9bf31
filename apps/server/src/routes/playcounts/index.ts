import type { FastifyInstance } from 'fastify';

// The playcounts feature's HTTP routes and realtime topics are registered here.
export default async function playcountsRoutes(_app: FastifyInstance): Promise<void> {}
