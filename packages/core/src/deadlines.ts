// The deadlines of the calls in flight, on one timer for all the calls with the same timeout: they end in the order
// they began, so their deadlines form a queue, and only its head needs a timer. A timer each (a Timeout object, and
// calls into libuv to set, unref and clear it) was a good part of a call's own cost at a batch's rate. The timer is
// unref'd: a deadline is a safety net, not work that keeps the process alive.

/** What a deadline ends. */
export interface Expiring {
  expire(): void;
}

/** A deadline in its queue. */
export interface Deadline {
  readonly owner: Expiring;
  /** When it passes (performance.now() ms). */
  readonly at: number;
  previous: Deadline | undefined;
  next: Deadline | undefined;
  queue: Queue | undefined;
}

/** The deadlines of one timeout, earliest first. */
interface Queue {
  readonly ms: number;
  head: Deadline | undefined;
  tail: Deadline | undefined;
  timer: NodeJS.Timeout | undefined;
  /** When the timer was set to fire: the time it stands for when it does (a timer never fires early). */
  due: number;
}

const queues = new Map<number, Queue>();

/** Calls `owner.expire()` in `ms` milliseconds (a whole number, under 2^31), unless the deadline is removed first. */
export function addDeadline(owner: Expiring, ms: number): Deadline {
  let queue = queues.get(ms);
  if (queue === undefined) {
    queue = { ms, head: undefined, tail: undefined, timer: undefined, due: 0 };
    queues.set(ms, queue);
  }
  const deadline: Deadline = {
    owner,
    at: performance.now() + ms,
    previous: queue.tail,
    next: undefined,
    queue,
  };
  if (queue.tail === undefined) queue.head = deadline;
  else queue.tail.next = deadline;
  queue.tail = deadline;
  if (queue.timer === undefined) arm(queue, deadline.at, ms);
  return deadline;
}

/** Removes a deadline that has not passed; removing it again does nothing. */
export function removeDeadline(deadline: Deadline): void {
  const queue = deadline.queue;
  if (queue === undefined) return;
  deadline.queue = undefined;
  if (deadline.previous === undefined) queue.head = deadline.next;
  else deadline.previous.next = deadline.next;
  if (deadline.next === undefined) queue.tail = deadline.previous;
  else deadline.next.previous = deadline.previous;
  if (queue.head !== undefined) return;
  // The last one: the timer goes, and the queue with it, so that a process with no call in flight holds none.
  clearTimeout(queue.timer);
  queue.timer = undefined;
  if (queues.get(queue.ms) === queue) queues.delete(queue.ms);
}

function arm(queue: Queue, due: number, delay: number): void {
  queue.due = due;
  queue.timer = setTimeout(fire, Math.max(1, Math.ceil(delay)), queue);
  queue.timer.unref();
}

function fire(queue: Queue): void {
  queue.timer = undefined;
  const now = Math.max(performance.now(), queue.due);
  for (let head = queue.head; head !== undefined && head.at <= now; head = queue.head) {
    removeDeadline(head);
    head.owner.expire();
  }
  const head = queue.head;
  if (head !== undefined && queue.timer === undefined) arm(queue, head.at, head.at - now);
}
