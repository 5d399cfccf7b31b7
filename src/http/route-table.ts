// Which methods exist at a concrete path. Fastify answers a wrong method with its 404 handler;
// the spec wants 405 method_not_allowed with an Allow header, so every registered route is
// mirrored here and the not-found handler asks this table.
import FindMyWay from 'find-my-way';

export class RouteTable {
  private readonly router = FindMyWay({ ignoreTrailingSlash: false });
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
}
