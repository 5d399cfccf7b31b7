// The roles a user may be given, in words (the shapes are the server's: data/users.ts).
export const ROLE_OPTIONS = [
  ['member', 'Member: builds, runs, approves, contacts and content'],
  ['admin', 'Admin: everything, including keys, users and settings'],
  ['owner', 'Owner: everything; an account keeps at least one'],
] as const;
