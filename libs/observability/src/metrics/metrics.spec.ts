import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mayReadMetrics, metricsRegistry } from './metrics';

describe('who may read /metrics', () => {
  it('lets scrapers inside the network in: loopback and private IPv4/IPv6 addresses', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.2.3.4', '172.16.0.9', '172.31.255.1', '192.168.1.20', 'fd12:3456::1', '::ffff:10.0.0.7']) {
      expect({ address, allowed: mayReadMetrics(address, undefined, undefined) }).toEqual({ address, allowed: true });
    }
  });

  it('keeps everyone else out unless they bear the token', () => {
    for (const address of ['203.0.113.9', '172.32.0.1', '8.8.8.8', '2001:db8::1', '::ffff:198.51.100.4', undefined]) {
      expect({ address, allowed: mayReadMetrics(address, undefined, 'tok-123') }).toEqual({ address, allowed: false });
      expect({ address, allowed: mayReadMetrics(address, 'Bearer wrong', 'tok-123') }).toEqual({ address, allowed: false });
      expect({ address, allowed: mayReadMetrics(address, 'Bearer tok-123', 'tok-123') }).toEqual({ address, allowed: true });
      expect({ address, allowed: mayReadMetrics(address, 'Bearer ', undefined) }).toEqual({ address, allowed: false });
    }
  });

  it('takes only the token where internal addresses are not enough (the gateway in production)', () => {
    for (const address of ['127.0.0.1', '10.2.3.4', '::1']) {
      expect(mayReadMetrics(address, undefined, 'tok-123', 'token-only')).toBe(false);
      expect(mayReadMetrics(address, undefined, undefined, 'token-only')).toBe(false);
      expect(mayReadMetrics(address, 'Bearer tok-123', 'tok-123', 'token-only')).toBe(true);
    }
  });
});

describe('the Grafana dashboard (deploy/grafana/plink-dashboard.json)', () => {
  it('charts only metrics a Plink process exports', async () => {
    const dashboard = JSON.parse(readFileSync(join(__dirname, '../../../../deploy/grafana/plink-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const exported = new Set((await metricsRegistry.getMetricsAsJSON()).map((m: { name: string }) => m.name));
    const used = dashboard.panels.flatMap((p) => p.targets.flatMap((t) => t.expr.match(/plink_[a-z0-9_]+/g) ?? []));
    expect(used.length).toBeGreaterThan(10);
    for (const name of used) {
      const base = name.replace(/_(bucket|count|sum)$/, '');
      expect({ name, exported: exported.has(base) || exported.has(name) }).toEqual({ name, exported: true });
    }
  });
});
