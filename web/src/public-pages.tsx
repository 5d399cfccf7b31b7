// Pages outside the signed-in shell: set-up (first run), sign-in, the account picker, set-password
// (one-time links). Each is its own URL.
import type { RouteObject } from 'react-router';

export const PUBLIC_PAGES: RouteObject[] = [
];
