// The shapes of /hub/api/users (src/hub/users/routes.ts).
import type { Role } from '../../lib/session';

export interface HubUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  has_password: boolean;
  created_at: string;
}

export interface Invitation {
  user: HubUser;
  set_password_url: string;
  emailed: boolean;
}

export const USERS_KEY = ['users'] as const;

export const ROLE_OPTIONS = [
  ['member', 'Member: builds, runs, approves, contacts and content'],
  ['admin', 'Admin: everything, including keys, users and settings'],
  ['owner', 'Owner: everything; an account keeps at least one'],
] as const;
