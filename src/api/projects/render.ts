// A project as the content API and the hub show it.
import { iso } from '../../lib/time.js';
import type { Project } from './schemas.js';
import type { ProjectRow } from '../../services/projects/read-store.js';

export function renderProject(r: ProjectRow): Project {
  return { id: r.id, name: r.name, description: r.description, created_at: iso(r.created_at), updated_at: iso(r.updated_at) };
}
