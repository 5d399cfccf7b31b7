// Placeholder: the routes of this resource are being built (issue 5).
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/app.js';

export function registerUsageRoutes(_app: FastifyInstance, _deps: AppDeps): void {}
