// Fault rules: a test injects them, and each matching request gets the fault instead of (or before) its
// normal answer, the given number of times.
import type { ServerResponse } from 'node:http';
import { JSON_TYPE, send, sniffContentType } from './replies.js';
import type { Fault, FaultRule, RecordedRequest } from './types.js';

interface ActiveRule {
  fault: Fault;
  method?: string | undefined;
  match?: ((request: RecordedRequest) => boolean) | undefined;
  remaining: number;
}

// A body cut off inside the first record, as seen when a connection drops mid-list.
const PARTIAL_LIST = '[{"id":"0b7e4c52-3d1f-4a8e-9c6b-2f5d8e1a7c34","name":"env-0001","displayName":"Pay';

export class FaultBook {
  #rules: ActiveRule[] = [];

  add(rules: readonly FaultRule[]): void {
    for (const rule of rules) {
      const times = rule.times ?? 1;
      if (!(times >= 1)) throw new RangeError(`Fault rule times must be at least 1, got ${times}`);
      this.#rules.push({ fault: rule.fault, method: rule.method, match: rule.match, remaining: times });
    }
  }

  clear(): void {
    this.#rules = [];
  }

  /** The fault for this request, if a rule matches it; the rule is used up by one. */
  take(request: RecordedRequest): Fault | undefined {
    const method = request.method.toUpperCase();
    const index = this.#rules.findIndex(
      (rule) => (rule.method === undefined || rule.method.toUpperCase() === method) && (rule.match === undefined || rule.match(request)),
    );
    const rule = this.#rules[index];
    if (!rule) return undefined;
    rule.remaining -= 1;
    if (rule.remaining <= 0) this.#rules.splice(index, 1);
    return rule.fault;
  }
}

export interface FaultEffects {
  /** Waits `ms`, on a timer the sandbox clears when it closes. */
  wait(ms: number): Promise<void>;
  /** Carries the request out as if no fault applied, without answering. */
  carryOut(): void;
}

/** Applies a fault; true when it has fully answered (or killed) the request, false to answer normally. */
export async function applyFault(fault: Fault, res: ServerResponse, effects: FaultEffects): Promise<boolean> {
  switch (fault.kind) {
    case 'delay':
      await effects.wait(fault.ms);
      return false;
    case 'hold':
      await fault.release;
      return false;
    case 'next-link':
      // The route spoils the link itself (routes.ts): only it knows the page.
      return false;
    case 'reset-after':
      effects.carryOut();
      res.destroy();
      return true;
    case 'raw':
      res.socket?.end(fault.response);
      return true;
    case 'reset-before':
      res.destroy();
      return true;
    case 'reset-mid-body':
      res.writeHead(200, { 'Content-Type': JSON_TYPE });
      // Destroy only once the partial chunk has reached the socket, so the client sees headers and some body.
      res.write(PARTIAL_LIST, () => res.destroy());
      return true;
    case 'invalid-json':
      send(res, { status: 200, body: '[{"id": "', headers: { 'Content-Type': JSON_TYPE } });
      return true;
    case 'status': {
      const body = fault.body ?? '';
      const headers: Record<string, string> = body.length === 0 ? {} : { 'Content-Type': sniffContentType(body.toString()) };
      send(res, { status: fault.status, body, headers: { ...headers, ...fault.headers } });
      return true;
    }
  }
}
