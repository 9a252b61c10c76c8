import { isBarrier, isSequential, resourceOf, type ContractTool } from '../../contract/index.js';
import { schedulingClaimsOf, type CallClaims } from '../scheduler/index.js';

/**
 * How a batch will run, as indices into its calls: a view of what the scheduler does with the
 * batch's claims (`batchClaims`), for hosts that show or check a plan; running never reads it.
 * `stages` run one after another; inside a stage the chains run concurrently (up to `maxParallel`
 * calls at once) and the calls of one chain run one after another, in model order.
 *
 * - Serial (the executor's `serial` option, or any sequential tool that is not a barrier in the
 *   batch): one stage holding one chain of every call, in model order.
 * - Otherwise the batch is split at barrier calls: each run of non-barrier calls is a stage whose
 *   chains group the calls by resource (a call without one is a chain of its own), ordered by
 *   their first call; each barrier is a stage of its own holding one chain of just that call.
 *   Empty stages are left out.
 */
export interface BatchPlan {
  readonly serial: boolean;
  readonly stages: readonly (readonly (readonly number[])[])[];
}

/**
 * Plans a batch whose calls go to `tools` (in model order); `undefined` stands for a call whose
 * tool is unknown (it completes at once with an error and is planned as a chain of its own).
 * It never runs anything.
 */
export function planBatch(
  tools: readonly (ContractTool | undefined)[],
  options: { readonly serial?: boolean } = {},
): BatchPlan {
  const serial =
    options.serial === true || tools.some((tool) => tool !== undefined && isSequential(tool) && !isBarrier(tool));
  if (serial) return { serial: true, stages: tools.length === 0 ? [] : [[tools.map((_, index) => index)]] };

  const stages: number[][][] = [];
  let chains: number[][] = [];
  let byResource = new Map<string, number[]>();
  const closeStage = (): void => {
    if (chains.length > 0) stages.push(chains);
    chains = [];
    byResource = new Map();
  };
  tools.forEach((tool, index) => {
    if (tool !== undefined && isBarrier(tool)) {
      closeStage();
      stages.push([[index]]);
      return;
    }
    const resource = tool === undefined ? '' : resourceOf(tool);
    if (resource === '') {
      chains.push([index]);
      return;
    }
    const chain = byResource.get(resource);
    if (chain !== undefined) {
      chain.push(index);
      return;
    }
    const fresh = [index];
    byResource.set(resource, fresh);
    chains.push(fresh);
  });
  closeStage();
  return { serial: false, stages };
}

const SERIAL_CLAIMS: CallClaims = Object.freeze({ exclusive: true, resource: '', kind: 'sequential' });

/**
 * The claims each call of a batch is fed to the scheduler with, in model order. The batch rule
 * lives here and only here: a serial batch (the executor's `serial` option, or any sequential
 * tool that is not a barrier in the batch) makes every call exclusive, so the calls run one at a
 * time in model order and resources are ignored. Otherwise each call claims what its tool claims
 * (`schedulingClaimsOf`: a barrier is exclusive, a resource key is held, an unknown tool claims nothing).
 * The online server never applies the serial rule: it cannot know what arrives after a call, so
 * there a sequential tool only runs alone.
 */
export function batchClaims(
  tools: readonly (ContractTool | undefined)[],
  options: { readonly serial?: boolean } = {},
): CallClaims[] {
  const serial =
    options.serial === true || tools.some((tool) => tool !== undefined && isSequential(tool) && !isBarrier(tool));
  return tools.map((tool) => (serial ? SERIAL_CLAIMS : schedulingClaimsOf(tool)));
}
