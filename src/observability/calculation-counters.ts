/**
 * The runner a gateway calls, counting each calculation by operation and outcome in
 * `calculations_total`.
 */
import { type CalculationOutcome, observedRunner, type Runner } from "../core/runner.js";
import type { AnyOperation } from "../kit/define.js";
import type { Gateway, Metrics } from "./metrics.js";

/** Counts one calculation of `operation` that ended in `outcome`. */
export type CalculationCount = (operation: AnyOperation, outcome: CalculationOutcome) => void;

/**
 * Counts calculations through `gateway`: one counter per operation and outcome, found by
 * identity rather than by building a key from a label object on every calculation.
 */
export function calculationCount(metrics: Metrics, gateway: Gateway): CalculationCount {
  const counters = new Map<AnyOperation, Map<string, { inc(): void }>>();
  return (operation, outcome) => {
    let byOutcome = counters.get(operation);
    if (!byOutcome) {
      byOutcome = new Map();
      counters.set(operation, byOutcome);
    }
    let counter = byOutcome.get(outcome);
    if (!counter) {
      const id = `${operation.area}/${operation.name}`;
      counter = metrics.calculationCounter({ operation: id, gateway, outcome });
      byOutcome.set(outcome, counter);
    }
    counter.inc();
  };
}

/** The runner, each calculation counted as {@link calculationCount} counts it. */
export function countingRunner(metrics: Metrics, gateway: Gateway): Runner {
  return observedRunner(calculationCount(metrics, gateway));
}
