import type { FastifyInstance } from 'fastify';

export interface Route {
  path: string;
  methods: string[];
}

/** Every route of the Fastify instance, from `printRoutes({ commonPrefix: false })`. */
export function routesOf(tree: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([\s│├└─]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = Math.floor(m[1].length / 4);
    // `:slug|:username` is one node serving two parameter names.
    const segment = m[2].replace(/(:\w+)\|:\w+/g, '$1');
    const parent = (depth > 0 && stack[depth - 1]) || '';
    const path = parent === '' ? segment : parent === '/' ? `/${segment}` : `${parent}${segment.startsWith('/') ? '' : '/'}${segment}`;
    stack[depth] = path;
    stack.length = depth + 1;
    if (m[3]) routes.push({ path, methods: m[3].split(',').map((s) => s.trim()) });
  }
  // The SPA's hashed files and examples are one static-file route each as far as input goes.
  const seen = new Set<string>();
  return routes.filter((r) => {
    const key = r.path.replace(/^\/(assets|examples)\/.*/, '/$1/*');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The routes a Fastify instance serves (see routesOf). */
export function routeTable(fastify: FastifyInstance): Route[] {
  return routesOf(fastify.printRoutes({ commonPrefix: false }));
}
