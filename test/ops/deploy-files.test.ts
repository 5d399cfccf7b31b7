// deploy/: the image, the compose file and the systemd unit hold what an operator relies on. No
// image can be built in CI (no Docker daemon, no registry but npm's and Debian's), so these are
// read as text: the Node major the image runs is the one CI tests, it runs as a non-root user
// with a health check and the built files it copies exist, the compose file's services all have
// health checks, and the unit stops by SIGTERM with time for the drain.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.js';

const read = (f: string) => fs.readFileSync(path.join(ROOT, 'deploy', f), 'utf8');

describe('deploy/', () => {
  it('the Dockerfile: multi-stage, the Node major CI tests, non-root, a health check, the pinned production tree', () => {
    const d = read('Dockerfile');
    const froms = [...d.matchAll(/^FROM node:(\d+)-\S+/gm)].map((m) => m[1]);
    expect(froms.length).toBe(2);
    expect(new Set(froms)).toEqual(new Set([process.versions.node.split('.')[0]]));
    expect(d).toMatch(/^USER node$/m);
    expect(d).toMatch(/^HEALTHCHECK .*\n\s+CMD \[/m);
    expect(d).toMatch(/npm ci --omit=dev/);
    expect(d).toMatch(/^ENTRYPOINT \["node", "--v8-pool-size=2", "bin\/switchboard\.js"\]$/m);
    // What the second stage copies from the build exists in a built checkout.
    for (const [, from] of d.matchAll(/^COPY --from=build \/src\/(\S+)/gm)) expect(fs.existsSync(path.join(ROOT, from)), from).toBe(true);
    for (const ignored of ['node_modules', 'dist', '.switchboard']) expect(fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n')).toContain(ignored);
  });

  it('compose.yaml: PostgreSQL, one api and one worker, each with a health check; a volume', () => {
    const c = read('compose.yaml');
    for (const service of ['postgres', 'api', 'worker']) expect(c).toMatch(new RegExp(`^  ${service}:\\n(?:    .*\\n|\\s*\\n)*?    healthcheck:`, 'm'));
    expect(c).toMatch(/command: \["serve", "--role", "api"\]/);
    expect(c).toMatch(/command: \["worker"\]/);
    expect(c).toMatch(/^volumes:\n {2}pgdata:/m);
  });

  it('the systemd unit: runs serve as its own user, stops by SIGTERM with time for the drain and in-flight requests', () => {
    const u = read('switchboard.service');
    expect(u).toMatch(/^ExecStart=\/usr\/bin\/env switchboard serve$/m);
    expect(u).toMatch(/^User=switchboard$/m);
    expect(u).toMatch(/^KillSignal=SIGTERM$/m);
    // 5 s of drain (production) and 10 s for in-flight requests (serve.ts SHUTDOWN_GRACE_MS).
    expect(Number(/^TimeoutStopSec=(\d+)$/m.exec(u)?.[1])).toBeGreaterThanOrEqual(15);
  });
});
