// Runs dependency-cruiser's API with a configuration on some paths of the current directory and
// prints what it found as one JSON line: {modules, violations: [{rule, from, to, cycle?}]}.
// usage: node cruise.mjs <config> <path>...   (dependency-cruiser is ESM only: jest runs this
// in a child process; test/architecture/dependency-rules.spec.ts reads its output.)
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const [config, ...paths] = process.argv.slice(2);
const options = await extractDepcruiseOptions(config);
const tsConfig = extractTSConfig(options.tsConfig.fileName);
const result = await cruise(paths, { ...options, outputType: 'json' }, {}, { tsConfig });
const { summary } = JSON.parse(result.output);
const violations = summary.violations.map((v) => ({
  rule: v.rule.name,
  from: v.from,
  to: v.to,
  ...(v.cycle ? { cycle: v.cycle.map((step) => step.name) } : {}),
}));
process.stdout.write(`${JSON.stringify({ modules: summary.totalCruised, violations })}\n`);
