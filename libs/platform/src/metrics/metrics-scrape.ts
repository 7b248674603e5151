/** Renders the exposition: the scrape-time gauges first, then every metric as Prometheus text. */
export type MetricsScrape = () => Promise<string>;

export const METRICS_SCRAPE = Symbol('METRICS_SCRAPE');
