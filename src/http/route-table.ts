// Which methods exist at a concrete path. Fastify answers a wrong method with its 404 handler;
// the spec wants 405 method_not_allowed with an Allow header, so every registered route is
// mirrored here and the not-found handler asks this table.
import FindMyWay from 'find-my-way';

export class RouteTable {
  // No length limit of its own: fastify's router refuses an over-long parameter (400 invalid_id),
  // and find-my-way's default of 100 characters here would make a wrong method at a path with a
  // long id a 404 instead of the 405 a short id gets.
  private readonly router = FindMyWay({ ignoreTrailingSlash: false, maxParamLength: Number.MAX_SAFE_INTEGER });
  private readonly methods = new Set<string>();

  add(method: string, url: string): void {
    this.methods.add(method);
    if (!this.router.hasRoute(method as FindMyWay.HTTPMethod, url)) {
      this.router.on(method as FindMyWay.HTTPMethod, url, () => {});
    }
  }

  /** The methods allowed at this path (empty when no route has it). */
  allowed(path: string): string[] {
    const out: string[] = [];
    for (const m of this.methods) {
      if (this.router.find(m as FindMyWay.HTTPMethod, path)) out.push(m);
    }
    return out.sort();
  }

  /** The name of a path parameter longer than `max` characters in a route at this path, if any. */
  longParam(path: string, max: number): string | undefined {
    for (const m of this.methods) {
      const params = this.router.find(m as FindMyWay.HTTPMethod, path)?.params ?? {};
      const name = Object.keys(params).find((k) => (params[k] ?? '').length > max);
      if (name) return name;
    }
    return undefined;
  }
}
