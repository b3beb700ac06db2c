import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { QUEUE_OWNER, QueueName } from '@plink/contracts';
import { loadConfig } from '@plink/config';
import { parseAllDocuments } from 'yaml';

/**
 * The Kubernetes manifests, rendered the way an operator applies them (`kubectl kustomize`), checked object by
 * object without a cluster: what a reviewer would otherwise have to catch by eye before a deploy.
 */
const ROOT = join(__dirname, '..', '..');

// The objects are read as kubectl prints them; the assertions say what each field must be.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; spec?: Loose; data?: Loose };

function render(dir: string): K8sObject[] {
  let out: string;
  try {
    out = execFileSync('kubectl', ['kustomize', join(ROOT, dir)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error('kubectl is needed to render the manifests (Debian: apt-get install kubernetes-client)', { cause: err });
    throw new Error(`kubectl kustomize ${dir} failed: ${e.stderr ?? e.message}`, { cause: err });
  }
  return parseAllDocuments(out).map((d) => d.toJS() as K8sObject);
}

const overlays = ['deploy/k8s/base', 'deploy/k8s/overlays/production'];

describe.each(overlays)('%s', (dir) => {
  const objects = render(dir);
  const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const deployments = ofKind('Deployment');
  const config = ofKind('ConfigMap').find((c) => c.metadata.name === 'plink-config')!;
  const podSpecs = [...deployments, ...ofKind('Job')].map((o) => ({ name: o.metadata.name, pod: o.spec.template.spec }));

  it('has a Deployment for the gateway and for each service worker, each running an app that exists', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(
      ['plink-billing', 'plink-gateway', 'plink-identity', 'plink-leads', 'plink-notifications', 'plink-pages'].sort(),
    );
    for (const { name, pod } of podSpecs) {
      const script = pod.containers[0].command.find((part: string) => part.endsWith('/dist/main.js'));
      expect({ name, exists: existsSync(join(ROOT, script.replace('/dist/main.js', '/package.json'))) }).toEqual({ name, exists: true });
    }
  });

  it('gives every container probes, resource requests and limits, and a pinned image', () => {
    for (const d of deployments) {
      for (const c of d.spec.template.spec.containers) {
        const where = `${d.metadata.name}/${c.name}`;
        expect({ where, live: c.livenessProbe?.httpGet?.path, ready: c.readinessProbe?.httpGet?.path }).toEqual({ where, live: '/health/live', ready: '/health/ready' });
        for (const kind of ['requests', 'limits']) {
          expect({ where, kind, cpu: Boolean(c.resources?.[kind]?.cpu), memory: Boolean(c.resources?.[kind]?.memory) }).toEqual({ where, kind, cpu: true, memory: true });
        }
      }
    }
    for (const { name, pod } of podSpecs) {
      for (const c of pod.containers) {
        // name:tag (not latest) or name@sha256:digest
        expect({ name, image: c.image }).toEqual({ name, image: expect.stringMatching(/^[^:@\s]+(:(?!latest$)[\w][\w.-]{0,127}|@sha256:[a-f0-9]{64})$/) });
      }
    }
  });

  it('runs every pod as a non-root user with a read-only root filesystem and no extra privileges', () => {
    for (const { name, pod } of podSpecs) {
      expect({ name, nonRoot: pod.securityContext?.runAsNonRoot, uid: pod.securityContext?.runAsUser > 0 }).toEqual({ name, nonRoot: true, uid: true });
      expect(pod.automountServiceAccountToken === false || objects.some((o) => o.kind === 'ServiceAccount' && o.metadata.name === pod.serviceAccountName && (o as { automountServiceAccountToken?: boolean }).automountServiceAccountToken === false)).toBe(true);
      for (const c of pod.containers) {
        expect({ name, sc: c.securityContext }).toEqual({
          name,
          sc: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
        });
      }
    }
  });

  it('takes secrets and settings by reference only: no Secret with values, no secret-looking inline variable', () => {
    expect(ofKind('Secret')).toEqual([]);
    for (const { name, pod } of podSpecs) {
      for (const c of pod.containers) {
        expect({ name, refs: (c.envFrom ?? []).map((r: { configMapRef?: { name: string }; secretRef?: { name: string } }) => r.configMapRef?.name ?? r.secretRef?.name) }).toEqual({
          name,
          refs: ['plink-config', 'plink-secrets'],
        });
        for (const v of c.env ?? []) {
          expect({ name, env: v.name, inline: /SECRET|PASSWORD|KEY|TOKEN|_URL$/.test(v.name) && v.value !== undefined }).toEqual({ name, env: v.name, inline: false });
        }
      }
    }
    for (const key of Object.keys(config.data)) expect(key).not.toMatch(/SECRET|PASSWORD|KEY|TOKEN|DATABASE_URL|REDIS_URL|SMTP_URL/);
  });

  it("connects each worker with its own database role, and only the gateway and the migration Job as the owner", () => {
    const databaseUrl = (pod: Loose) => (pod.containers[0].env ?? []).find((v: { name: string }) => v.name === 'DATABASE_URL');
    for (const { name, pod } of podSpecs) {
      const app = /^apps\/([a-z]+)\/dist\/main\.js$/.exec(pod.containers[0].command.find((part: string) => part.endsWith('/dist/main.js')))![1];
      const worker = ['identity', 'pages', 'leads', 'billing', 'notifications'].includes(app);
      // A worker's DATABASE_URL replaces the owner's of plink-secrets: the key of its own service in plink-worker-databases.
      expect({ name, app, databaseUrl: databaseUrl(pod) }).toEqual({
        name,
        app,
        databaseUrl: worker ? { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'plink-worker-databases', key: app } } } : undefined,
      });
    }
  });

  it('migrates with a Job before a rollout: apps do not migrate on start', () => {
    expect(config.data.MIGRATE_ON_START).toBe('false');
    const [job] = ofKind('Job');
    expect(job.spec.template.spec.containers[0].command).toEqual(['node', 'apps/cli/dist/main.js', 'migrate']);
  });

  it('has a PodDisruptionBudget for every Deployment', () => {
    const budgets = ofKind('PodDisruptionBudget');
    for (const d of deployments) {
      const covered = budgets.some((b) => Object.entries(b.spec.selector.matchLabels).every(([k, v]) => d.spec.template.metadata.labels[k] === v));
      expect({ deployment: d.metadata.name, covered }).toEqual({ deployment: d.metadata.name, covered: true });
    }
  });

  it('scales the gateway on CPU and each worker on the waiting jobs of its own queues, covering every queue', () => {
    const [hpa] = ofKind('HorizontalPodAutoscaler');
    expect(hpa.spec.scaleTargetRef.name).toBe('plink-gateway');
    expect(hpa.spec.metrics[0].resource.name).toBe('cpu');

    const prefix = `${config.data.REDIS_PREFIX}bull:`;
    const scaled = new Map<string, string>(); // queue → deployment
    for (const so of ofKind('ScaledObject')) {
      const target = so.spec.scaleTargetRef.name as string;
      expect(deployments.map((d) => d.metadata.name)).toContain(target);
      expect(target).not.toBe('plink-gateway');
      expect(so.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
      expect(so.spec.maxReplicaCount).toBeGreaterThan(so.spec.minReplicaCount);
      for (const trigger of so.spec.triggers) {
        expect(trigger.type).toBe('redis');
        expect(trigger.authenticationRef.name).toBe('plink-redis');
        const match = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([a-z-]+):wait$`).exec(trigger.metadata.listName);
        expect({ listName: trigger.metadata.listName, matches: Boolean(match) }).toEqual({ listName: trigger.metadata.listName, matches: true });
        const queue = match![1] as QueueName;
        expect(Object.values(QueueName)).toContain(queue);
        // The worker that serves the queue is the one scaled by it.
        expect({ queue, target }).toEqual({ queue, target: `plink-${QUEUE_OWNER[queue]}` });
        scaled.set(queue, target);
      }
    }
    expect([...scaled.keys()].sort()).toEqual(Object.values(QueueName).sort());
  });

  it('gives every app settings it starts with in production (the ConfigMap, its own env, the Secret the README names)', () => {
    // The values the operator puts in the Secret plink-secrets (deploy/README.md), as example values.
    const secret = {
      DATABASE_URL: 'postgres://plink:pw@db:5432/plink',
      REDIS_URL: 'redis://:pw@redis:6379',
      SESSION_SECRET: 'k3Zq9vT2mX8pL4wR7yB1nC6dF0gH5jS2aE9uI3oP7lK=',
      SMTP_URL: 'smtps://mailer:pw@smtp.example.com:465',
      S3_ENDPOINT: 's3.example.com',
      S3_ACCESS_KEY: 'access',
      S3_SECRET_KEY: 'secret-key',
      S3_BUCKET: 'plink',
      S3_PUBLIC_URL: 'https://files.example.com',
    };
    for (const { name, pod } of podSpecs) {
      const container = pod.containers[0];
      const own = Object.fromEntries((container.env ?? []).filter((e: { value?: string }) => e.value !== undefined).map((e: { name: string; value: string }) => [e.name, e.value]));
      const env = { ...config.data, ...secret, ...own };
      expect({ name, starts: (() => { try { loadConfig(env); return 'yes'; } catch (err) { return (err as Error).message; } })() }).toEqual({ name, starts: 'yes' });
    }
  });

  it('lets only the gateway take traffic, from the ingress controller, and Prometheus scrape the metrics ports', () => {
    const policies = ofKind('NetworkPolicy');
    const from = (p: K8sObject) => p.spec.ingress.flatMap((rule: Loose) => rule.from.map((f: Loose) => f.namespaceSelector.matchLabels['kubernetes.io/metadata.name']));
    const allowing = policies.filter((p) => (p.spec.ingress ?? []).length > 0);
    const fromIngress = allowing.filter((p) => from(p).includes('ingress-nginx'));
    expect(fromIngress.map((p) => p.spec.podSelector.matchLabels['app.kubernetes.io/name'])).toEqual(['plink-gateway']);
    for (const p of allowing.filter((x) => !fromIngress.includes(x))) {
      expect(from(p)).toEqual(['monitoring']);
      expect(p.spec.ingress[0].ports.map((port: { port: number }) => port.port).sort()).toEqual([3000, 3100]);
    }
    // Prometheus scrapes each pod's health port, declared by its container: there /metrics needs no token, while
    // a production gateway's public port answers it only with METRICS_TOKEN.
    for (const d of deployments) {
      const annotations = d.spec.template.metadata.annotations;
      const declared = d.spec.template.spec.containers[0].ports.map((p: { containerPort: number }) => String(p.containerPort));
      expect({ d: d.metadata.name, port: annotations['prometheus.io/port'], declared: declared.includes(config.data.HEALTH_PORT) }).toEqual({
        d: d.metadata.name,
        port: config.data.HEALTH_PORT,
        declared: true,
      });
    }
    expect(config.data.TRUST_PROXY).toMatch(/^\d+$/); // a hop count (or CIDRs): the apps refuse a blanket "true"
    const denyAll = policies.find((p) => p.spec.podSelector.matchLabels['app.kubernetes.io/part-of'] === 'plink');
    expect(denyAll?.spec.ingress).toEqual([]);
    for (const d of deployments) expect(d.spec.template.metadata.labels['app.kubernetes.io/part-of']).toBe('plink');
  });

  if (dir.endsWith('production')) {
    it('puts everything in its namespace and routes the Ingress to the gateway Service', () => {
      for (const o of objects.filter((x) => x.kind !== 'Namespace')) expect({ o: `${o.kind}/${o.metadata.name}`, ns: o.metadata.namespace }).toEqual({ o: `${o.kind}/${o.metadata.name}`, ns: 'plink' });
      const [ingress] = ofKind('Ingress');
      const service = ofKind('Service').find((s) => s.metadata.name === 'plink-gateway')!;
      for (const rule of ingress.spec.rules) {
        for (const path of rule.http.paths) {
          expect(path.backend.service.name).toBe('plink-gateway');
          expect(service.spec.ports.map((p: { name: string }) => p.name)).toContain(path.backend.service.port.name);
        }
      }
    });
  }
});
