// One widget's runs in the worker, latest value wins: while a run is in flight, further requests
// only mark the queue dirty, and when its answer arrives one more run follows with the newest
// inputs (read when it is sent), so a burst of edits never queues a backlog and the answer shown
// is always that of the latest inputs. No DOM here: the widget says what to send and what to do
// with an answer.

/** What an answer is to the queue (see RunQueue.settle). */
export const ANSWER = Object.freeze({
  STALE: "stale", // not the run in flight (one that was cancelled or timed out): ignore it
  SUPERSEDED: "superseded", // newer inputs came meanwhile: a run with them was sent instead
  CURRENT: "current", // the answer for the latest inputs: show it
});

export class RunQueue {
  /**
   * @param canRun () => whether a run may be sent now (the worker is ready)
   * @param send (seq) => post run number `seq` with the inputs as they are now; returns a function
   *   that cancels that run's watchdog (worker-client.js's run)
   */
  constructor({ canRun, send }) {
    this.canRun = canRun;
    this.send = send;
    this.seq = 0;
    this.inflight = 0; // the seq of the run in flight, or 0
    this.dirty = false; // a run was asked for that has not been sent
    this.cancelWatch = null;
  }

  get busy() {
    return this.inflight !== 0;
  }

  /** Ask for a run with the newest inputs: sent now when the worker can take it and no run is in
   * flight; otherwise it follows (the answer in flight, or the worker's `ready`). Returns whether
   * a run was sent. */
  request() {
    if (!this.canRun() || this.inflight) {
      this.dirty = true;
      return false;
    }
    this.dirty = false;
    this.seq += 1;
    this.inflight = this.seq;
    this.cancelWatch = this.send(this.seq) || null;
    return true;
  }

  /** The worker answered run `seq` (a result or an error): what that answer is (ANSWER). */
  settle(seq) {
    if (!this.inflight || seq !== this.inflight) return ANSWER.STALE;
    const again = this.dirty;
    this.cancel();
    if (again) {
      this.request();
      return ANSWER.SUPERSEDED;
    }
    return ANSWER.CURRENT;
  }

  /** Forget the run in flight (its worker was stopped): its answer, if any, will be stale.
   * `again`: one more run is due (sent by the next request, such as the new worker's `ready`). */
  cancel(again = false) {
    if (this.cancelWatch) this.cancelWatch();
    this.cancelWatch = null;
    this.inflight = 0;
    this.dirty = again;
  }
}
