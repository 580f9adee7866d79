// What the receiver answers, delivery by delivery: a queue of planned responses, then a default.
// `respondWith([500, 500, 200])` answers the next three deliveries with those statuses.

export interface PlannedResponse {
  status: number;
  /** Wait this long before sending the status line (simulates a slow receiver / timeout). */
  delayMs?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Close the connection without answering (a connection error for the sender). */
  hangUp?: boolean;
}

export type ResponseStep = number | PlannedResponse;

function normalise(step: ResponseStep): PlannedResponse {
  return typeof step === 'number' ? { status: step } : step;
}

export class ResponseScript {
  #queue: PlannedResponse[] = [];
  #fallback: PlannedResponse = { status: 200 };

  respondWith(steps: readonly ResponseStep[]): void {
    this.#queue.push(...steps.map(normalise));
  }

  setDefault(step: ResponseStep): void {
    this.#fallback = normalise(step);
  }

  /** The response for the next delivery. */
  next(): PlannedResponse {
    return this.#queue.shift() ?? this.#fallback;
  }

  get pending(): number {
    return this.#queue.length;
  }

  reset(): void {
    this.#queue = [];
    this.#fallback = { status: 200 };
  }
}
