import { existsSync, readFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { fromRepoRoot } from '@app/core';

/**
 * docker-compose.yml where no compose engine runs: valid against the vendored compose-spec
 * schema (deploy/compose-spec), and the files it mounts say what the services need: Prometheus
 * scrapes services that exist, on the METRICS_PORT they set; the runtime's OTLP endpoint and
 * Grafana's data sources name services that exist; the dashboard is JSON that Grafana reads.
 */

type Service = {
  environment?: Record<string, string | number | boolean | null>;
  volumes?: string[];
  ports?: string[];
  image?: string;
  build?: unknown;
  profiles?: string[];
  deploy?: { replicas?: number };
};

const readYaml = (path: string) => parse(readFileSync(fromRepoRoot(path), 'utf8'), { merge: true });
const compose = readYaml('docker-compose.yml') as {
  services: Record<string, Service>;
  'x-eventstore-cluster': string;
};
const services = compose.services;
const runtimeServices = Object.entries(services).filter(([, service]) => service.build !== undefined);
/**
 * The compose-spec schema's validator. The schema is draft-07, Ajv's default; its `$schema`
 * spells the meta-schema's address with https and without `#`, which Ajv does not know by that
 * name, so it is left out.
 */
function composeValidator(options: { allErrors?: boolean } = {}) {
  const { $schema, ...schema } = JSON.parse(
    readFileSync(fromRepoRoot('deploy/compose-spec/compose-spec.json'), 'utf8'),
  );
  expect($schema).toMatch(/json-schema\.org\/draft-07\/schema/);
  const ajv = new Ajv({ ...options, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

/** The host part of a URL or of a `host:port` target. */
const hostOf = (address: string) => new URL(address.includes('://') ? address : `http://${address}`).hostname;

describe('docker-compose.yml', () => {
  it('is valid against the compose-spec schema', () => {
    const validate = composeValidator({ allErrors: true });
    // With its YAML merge keys (`<<: *runtime`) resolved, as a compose engine reads it.
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
  });

  it('the schema catches a broken file (the validation is not vacuous)', () => {
    const validate = composeValidator();
    expect(validate({ services: { api: { image: 'x', ports: [{ target: 80, bogus: true }] } } })).toBe(false);
    expect(validate({ services: { api: { image: 'x', restart_policy: 'always' } } })).toBe(false);
    expect(validate({ servces: {} })).toBe(false);
    expect(validate({ services: { api: { image: 'x', ports: ['3000:3000'] } } })).toBe(true);
  });

  it('runs the three runtime roles with METRICS_PORT and the OTLP exporter pointing at a service', () => {
    expect(runtimeServices.map(([name]) => name).sort()).toEqual(['api', 'projector', 'scheduler']);
    for (const [name, service] of runtimeServices) {
      const env = service.environment ?? {};
      expect({ name, port: String(env.METRICS_PORT) }).toEqual({ name, port: '9464' });
      expect(env.OTEL_TRACES_EXPORTER).toBe('otlp');
      expect(services[hostOf(String(env.OTEL_EXPORTER_OTLP_ENDPOINT))]).toBeDefined();
      expect(env.OTEL_SERVICE_NAME).toBe(`agent-runtime-${name}`);
    }
  });

  it('runs 2 replicas of each runtime role, none publishing a host port: one proxy is the front door', () => {
    expect(Object.fromEntries(runtimeServices.map(([name, service]) => [name, service.deploy?.replicas]))).toEqual({
      api: 2,
      projector: 2,
      scheduler: 2,
    });
    for (const [name, service] of runtimeServices)
      expect({ name, ports: service.ports }).toEqual({ name, ports: undefined });
    const published = Object.entries(services).flatMap(([name, service]) =>
      (service.ports ?? []).map((port) => ({ name, host: String(port).split(':')[0] })),
    );
    // HTTP and gRPC are published once, by the proxy.
    expect(published.filter((port) => ['3000', '50051'].includes(port.host))).toEqual([
      { name: 'proxy', host: '3000' },
      { name: 'proxy', host: '50051' },
    ]);
  });

  it("the proxy's nginx.conf spreads HTTP and gRPC over the api service's replicas, re-resolved by name", () => {
    expect(services.proxy.volumes).toContain('./deploy/nginx/nginx.conf:/etc/nginx/nginx.conf:ro');
    const conf = readFileSync(fromRepoRoot('deploy/nginx/nginx.conf'), 'utf8');
    const env = services.api.environment ?? {};
    const upstreams = [...conf.matchAll(/server\s+([a-z-]+):(\d+)\s+resolve;/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(upstreams).toEqual(['api:3000', 'api:50051']);
    // The runtime's default ports (PORT, GRPC_PORT unset in the compose file) are what the proxy dials.
    expect([env.PORT, env.GRPC_PORT]).toEqual([undefined, undefined]);
    expect(conf).toMatch(/listen 3000;/);
    expect(conf).toMatch(/listen 50051;\s*\n\s*http2 on;/);
    expect(conf).toMatch(/grpc_pass grpc:\/\/api_grpc;/);
    expect(conf).toMatch(/resolver 127\.0\.0\.11/);
  });

  it('mounts config files that exist', () => {
    for (const service of Object.values(services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0];
        if (source.startsWith('./'))
          expect({ volume, exists: existsSync(fromRepoRoot(source)) }).toEqual({ volume, exists: true });
      }
    }
  });
});

describe("docker-compose.yml's three-node EventStoreDB cluster (profile `cluster`)", () => {
  const nodes = Object.entries(services).filter(([, service]) => service.profiles?.includes('cluster'));

  it('has three eventstore nodes, only in the cluster profile, each seeded with the other two', () => {
    expect(nodes.map(([name]) => name)).toEqual(['eventstore-1', 'eventstore-2', 'eventstore-3']);
    for (const [name, node] of nodes) {
      const env = node.environment ?? {};
      expect({ name, size: env.EVENTSTORE_CLUSTER_SIZE, insecure: env.EVENTSTORE_INSECURE }).toEqual({
        name,
        size: 3,
        insecure: 'true',
      });
      expect(node.image).toMatch(/^eventstore\/eventstore:|^kurrentplatform\/kurrentdb:/);
      const seeds = String(env.EVENTSTORE_GOSSIP_SEED).split(',');
      const others = nodes.filter(([other]) => other !== name).map(([other]) => `${other}:${env.EVENTSTORE_NODE_PORT}`);
      expect(seeds.sort()).toEqual(others.sort());
    }
    // Nothing else is in the profile, and the default `up` does not start the cluster.
    expect(Object.values(services).filter((service) => service.profiles !== undefined)).toHaveLength(3);
  });

  it('names the three nodes in the connection string the runtime is given for it', () => {
    const [, hostList, query] = /^esdb:\/\/([^/?]+)\/?\?(.*)$/.exec(compose['x-eventstore-cluster']) ?? [];
    expect(hostList.split(',')).toEqual(
      nodes.map(([name, node]) => `${name}:${node.environment?.EVENTSTORE_NODE_PORT}`),
    );
    expect(new URLSearchParams(query).get('tls')).toBe('false');
    for (const [name, service] of runtimeServices)
      expect({ name, env: service.environment?.EVENTSTORE_CONNECTION_STRING }).toEqual({
        name,
        env: '${EVENTSTORE_CONNECTION_STRING:-esdb://eventstore:2113?tls=false}',
      });
  });
});

describe('the Prometheus and Grafana configuration of docker-compose.yml', () => {
  const prometheus = readYaml('deploy/prometheus/prometheus.yml');
  const runtimeJob = prometheus.scrape_configs.find((job: { job_name: string }) => job.job_name === 'agent-runtime');

  it('Prometheus scrapes /metrics of every runtime service, on the METRICS_PORT each sets', () => {
    expect(runtimeJob.metrics_path).toBe('/metrics');
    const discovered = runtimeJob.dns_sd_configs.flatMap((config: { names: string[]; port: number }) =>
      config.names.map((name) => ({ name, port: String(config.port) })),
    );
    expect(discovered).toEqual(
      runtimeServices.map(([name, service]) => ({ name, port: String(service.environment?.METRICS_PORT) })),
    );
    expect(services.prometheus.volumes).toContain(
      './deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
    );
  });

  it("Grafana's data sources name compose services, and the dashboard uses the Prometheus one", () => {
    const { datasources } = readYaml('deploy/grafana/provisioning/datasources/datasources.yml');
    for (const source of datasources) expect(services[hostOf(source.url)]).toBeDefined();
    const uids = new Set(datasources.map((source: { uid: string }) => source.uid));
    const dashboard = JSON.parse(readFileSync(fromRepoRoot('deploy/grafana/dashboards/agent-runtime.json'), 'utf8'));
    expect(dashboard).toMatchObject({ uid: 'agent-runtime', title: expect.any(String) });
    const panels = dashboard.panels.filter((panel: { type: string }) => panel.type !== 'row');
    expect(panels.length).toBeGreaterThan(10);
    for (const panel of panels) {
      expect(uids.has(panel.datasource.uid)).toBe(true);
      for (const target of panel.targets) expect(target.expr).toMatch(/agent_runtime_|process_|nodejs_/);
    }
    const { providers } = readYaml('deploy/grafana/provisioning/dashboards/dashboards.yml');
    expect(services.grafana.volumes).toContain(`./deploy/grafana/dashboards:${providers[0].options.path}:ro`);
  });
});
