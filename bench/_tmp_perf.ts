import { digestSteps } from '../src-shared/compare/step-digest';
import { alignSteps } from '../src-shared/compare/align';
import { runFacts } from '../src-shared/compare/run-facts';
import { longRun } from '../src-renderer/testing/run-script';
const a = JSON.parse(JSON.stringify(longRun('a', 10000)));
const b = JSON.parse(JSON.stringify(longRun('b', 10000)));
for (let k = 0; k < 5; k++) {
  let t = performance.now();
  const da = digestSteps(a); const db = digestSteps(b);
  const t1 = performance.now();
  runFacts(a); runFacts(b);
  const t2 = performance.now();
  const rows = alignSteps(da, db);
  const t3 = performance.now();
  console.log('digest', (t1 - t).toFixed(1), 'facts', (t2 - t1).toFixed(1), 'align', (t3 - t2).toFixed(1), rows.length);
}
