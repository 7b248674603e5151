/**
 * The standard OpenTelemetry variables this runtime reads (docs/decisions/0033, docs/api.md
 * "Traces"). Tracing is off unless they ask for it: an OTLP endpoint or OTEL_TRACES_EXPORTER.
 * The OTLP exporter reads its own OTEL_EXPORTER_OTLP_* variables (endpoint, headers, timeout,
 * compression, certificates) from the process environment.
 */

export const TRACE_EXPORTERS = ['otlp', 'console'] as const;
export type TraceExporterName = (typeof TRACE_EXPORTERS)[number];

export const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number];

export interface TracingConfig {
  /** OTEL_TRACES_EXPORTER (a list), or `otlp` when only an OTLP endpoint is set. */
  readonly exporters: readonly TraceExporterName[];
  /**
   * The OTLP traces URL: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, else OTEL_EXPORTER_OTLP_ENDPOINT
   * + `/v1/traces`; undefined: the exporter's default (`http://localhost:4318/v1/traces`).
   */
  readonly otlpTracesUrl?: string;
  /** OTEL_SERVICE_NAME, else OTEL_RESOURCE_ATTRIBUTES' `service.name`, else `agent-runtime`. */
  readonly serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, `key=value,key=value` (percent-decoded). */
  readonly resourceAttributes: Readonly<Record<string, string>>;
  /** OTEL_TRACES_SAMPLER (default parentbased_always_on) and OTEL_TRACES_SAMPLER_ARG (a ratio, default 1). */
  readonly sampler: { readonly name: TraceSamplerName; readonly ratio: number };
  /** OTEL_BSP_SCHEDULE_DELAY, OTEL_BSP_EXPORT_TIMEOUT (ms), OTEL_BSP_MAX_QUEUE_SIZE, OTEL_BSP_MAX_EXPORT_BATCH_SIZE. */
  readonly batch: {
    readonly scheduledDelayMillis?: number;
    readonly exportTimeoutMillis?: number;
    readonly maxQueueSize?: number;
    readonly maxExportBatchSize?: number;
  };
}

const PROTOCOLS = ['http/protobuf'];

/**
 * Null when tracing is off: OTEL_SDK_DISABLED=true, OTEL_TRACES_EXPORTER=none, or neither an
 * exporter nor an OTLP endpoint set (the default). Problems are pushed, naming the variable.
 */
export function loadTracingConfig(
  read: (name: string) => string | undefined,
  problems: string[],
): TracingConfig | null {
  const disabled = read('OTEL_SDK_DISABLED');
  if (disabled !== undefined && disabled.toLowerCase() === 'true') return null;
  const exporters = exportersOf(read, problems);
  if (exporters.length === 0) return null;
  if (exporters.includes('otlp')) {
    const protocolVariable = read('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
      ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
      : 'OTEL_EXPORTER_OTLP_PROTOCOL';
    const protocol = read(protocolVariable);
    if (protocol !== undefined && !PROTOCOLS.includes(protocol))
      problems.push(
        `${protocolVariable} must be ${PROTOCOLS.join(' or ')} (this runtime's OTLP exporter), got '${protocol}'`,
      );
  }
  const resourceAttributes = resourceAttributesOf(read('OTEL_RESOURCE_ATTRIBUTES'), problems);
  const base = read('OTEL_EXPORTER_OTLP_ENDPOINT');
  const otlpTracesUrl =
    read('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ??
    (base === undefined ? undefined : `${base.replace(/\/+$/, '')}/v1/traces`);
  for (const [name, url] of [
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', read('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', base],
  ] as const)
    if (url !== undefined && !/^https?:\/\/[^\s]+$/i.test(url))
      problems.push(`${name} must be an http:// or https:// URL, got '${url}'`);
  return {
    exporters,
    ...(otlpTracesUrl === undefined ? {} : { otlpTracesUrl }),
    serviceName: read('OTEL_SERVICE_NAME') ?? resourceAttributes['service.name'] ?? 'agent-runtime',
    resourceAttributes,
    sampler: samplerOf(read, problems),
    batch: {
      scheduledDelayMillis: whole(read, 'OTEL_BSP_SCHEDULE_DELAY', problems),
      exportTimeoutMillis: whole(read, 'OTEL_BSP_EXPORT_TIMEOUT', problems),
      maxQueueSize: whole(read, 'OTEL_BSP_MAX_QUEUE_SIZE', problems),
      maxExportBatchSize: whole(read, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', problems),
    },
  };
}

function exportersOf(read: (name: string) => string | undefined, problems: string[]): TraceExporterName[] {
  const raw = read('OTEL_TRACES_EXPORTER');
  if (raw === undefined)
    return read('OTEL_EXPORTER_OTLP_ENDPOINT') || read('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ? ['otlp'] : [];
  const names = [...new Set(raw.split(',').map((name) => name.trim().toLowerCase()))].filter(Boolean);
  if (names.includes('none')) return [];
  const unknown = names.filter((name) => !(TRACE_EXPORTERS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    problems.push(`OTEL_TRACES_EXPORTER must list ${TRACE_EXPORTERS.join(', ')} or none, got '${raw}'`);
    return [];
  }
  return names as TraceExporterName[];
}

function samplerOf(read: (name: string) => string | undefined, problems: string[]): TracingConfig['sampler'] {
  const raw = read('OTEL_TRACES_SAMPLER')?.toLowerCase() ?? 'parentbased_always_on';
  let name: TraceSamplerName = 'parentbased_always_on';
  if ((TRACE_SAMPLERS as readonly string[]).includes(raw)) name = raw as TraceSamplerName;
  else problems.push(`OTEL_TRACES_SAMPLER must be one of ${TRACE_SAMPLERS.join(', ')}, got '${raw}'`);
  const arg = read('OTEL_TRACES_SAMPLER_ARG');
  if (arg === undefined || !name.endsWith('traceidratio')) return { name, ratio: 1 };
  const ratio = Number(arg);
  if (/^\d*\.?\d+$/.test(arg) && ratio >= 0 && ratio <= 1) return { name, ratio };
  problems.push(`OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1, got '${arg}'`);
  return { name, ratio: 1 };
}

/** `key=value,key2=value2`, values percent-encoded (the OpenTelemetry resource grammar). */
function resourceAttributesOf(raw: string | undefined, problems: string[]): Record<string, string> {
  const attributes: Record<string, string> = {};
  if (raw === undefined) return attributes;
  for (const pair of raw.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const key = at < 0 ? '' : pair.slice(0, at).trim();
    try {
      if (key === '') throw new Error('no key');
      attributes[key] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      problems.push(`OTEL_RESOURCE_ATTRIBUTES must be key=value pairs separated by commas, got '${raw}'`);
      return {};
    }
  }
  return attributes;
}

function whole(read: (name: string) => string | undefined, name: string, problems: string[]): number | undefined {
  const raw = read(name);
  if (raw === undefined) return undefined;
  if (/^\d{1,9}$/.test(raw) && Number(raw) >= 1) return Number(raw);
  problems.push(`${name} must be a whole number (at least 1), got '${raw}'`);
  return undefined;
}
