/**
 * The CI soak: scripts/soak.ts's runSoak for 75 s (15 s warm-up) against the service
 * started as a child process. No 5xx, no socket failures, no logged fault, every status
 * the one its request expects, a clean exit on SIGTERM, and no sustained growth of the old
 * generation's post-GC floor over HEAP_GROWTH_LIMIT_MB_PER_MIN (scripts/soak.ts explains
 * the method and the limit; 60 s measured after a 15 s warm-up, in which the old generation
 * still settles (JIT code, caches), catch gross leaks; the full soak resolves the limit).
 * The full soak is `npm run soak` (300 s by default).
 */
import { afterAll, expect, it } from "vitest";
import {
  HEAP_GROWTH_LIMIT_MB_PER_MIN,
  killSoakChildren,
  markdownOf,
  runSoak,
} from "../../scripts/soak.js";

const DURATION_S = 75;
const WARMUP_S = 15;

afterAll(() => {
  killSoakChildren();
});

it(`${DURATION_S} s of mixed traffic: no 5xx, and the heap floor grows < ${HEAP_GROWTH_LIMIT_MB_PER_MIN} MB/min`, async () => {
  const summary = await runSoak({
    durationSeconds: DURATION_S,
    connections: 20,
    warmupSeconds: WARMUP_S,
  });
  const r = summary.requests;
  const f = summary.oldGenerationFloor;
  console.log(
    `soak (${DURATION_S} s): ${r.sent} requests (${r.perSecond}/s), statuses ${JSON.stringify(r.statuses)}, ` +
      `5xx ${r.serverErrors}, errors without a JSON body ${r.errorsWithoutJsonBody}; RSS ${summary.rss.startMB} → max ${summary.rss.maxMB} → ` +
      `${summary.rss.endMB} MB (${summary.rss.slopeMBPerMin} MB/min); heap used ` +
      `${summary.heapUsed.startMB} → max ${summary.heapUsed.maxMB} → ${summary.heapUsed.endMB} MB ` +
      `(${summary.heapUsed.slopeMBPerMin} MB/min); old-generation post-GC floor ${f.firstMB} → ` +
      `${f.lastMB} MB, ${f.slopeMBPerMin} ± ${f.standardErrorMBPerMin} MB/min over ${f.points} ` +
      `${f.method} (sustained ${f.sustainedMBPerMin}, limit ${HEAP_GROWTH_LIMIT_MB_PER_MIN})`,
  );
  if (!summary.passed) console.log(markdownOf(summary));
  expect(r.serverErrors).toBe(0);
  expect(r.errorsWithoutJsonBody).toBe(0);
  expect(r.failed).toBe(0);
  expect(r.unexpectedExamples).toEqual([]);
  expect(summary.serviceErrorLogs).toBe(0);
  expect(r.answered).toBeGreaterThan(0);
  expect(summary.postWarmupSamples).toBeGreaterThanOrEqual(DURATION_S - WARMUP_S - 5);
  // Sustained growth: the floors' slope less twice its standard error (see scripts/soak.ts).
  expect(f.sustainedMBPerMin).toBeLessThan(HEAP_GROWTH_LIMIT_MB_PER_MIN);
  expect(summary.serviceExit).toEqual({ code: 0, signal: null });
}, 180_000);
