/// A handle to a scheduled task, used to cancel it.
public struct TimerID: Hashable, Sendable, Comparable {
    let raw: Int
    public static func < (lhs: TimerID, rhs: TimerID) -> Bool { lhs.raw < rhs.raw }
}

/// What the owner of a task with an open deadline knows of it when asked (``Scheduler/schedule(notBefore:resolving:_:)``).
public enum DeadlineEstimate: Sendable {
    /// The task is due at this instant.
    case at(Instant)
    /// The task is due later than this instant, which must lie past the horizon it was asked about.
    case after(Instant)
}

/// A discrete-event scheduler on a clock it is given.
///
/// Tasks run in order of (deadline, insertion). Time never goes backwards: while a task runs, `now` is its
/// deadline, and a task scheduled in the past runs at `now`. Headless runs call `advance(to:)` with virtual
/// instants; live mode calls the very same method with instants read from a real-time clock — that is the
/// seam through which one engine serves every output mode (model: swift-nio's `EmbeddedEventLoop`).
public final class Scheduler {
    private struct Entry {
        var deadline: Instant
        var sequence: Int
        var id: TimerID
        var period: TimeSpan?
    }

    /// The current instant.
    public private(set) var now: Instant = .zero
    private var heap: [Entry] = []
    private var actions: [TimerID: () -> Void] = [:]
    private var resolvers: [TimerID: (Instant?) -> DeadlineEstimate] = [:]
    private var nextSequence = 0
    private var nextID = 0

    /// Creates a scheduler whose clock starts at zero.
    public init() {}

    /// The deadline of the next live task, if any.
    public var nextDeadline: Instant? {
        settleHead(notAfter: nil)
        return heap.first?.deadline
    }

    /// True when a task that runs once (not a repeating timer) is still pending.
    public var hasPendingOneShot: Bool {
        heap.contains { $0.period == nil && actions[$0.id] != nil }
    }

    /// True when no task is pending.
    public var isIdle: Bool { nextDeadline == nil }

    /// Schedules `action` to run once at `deadline` (or now, if `deadline` has passed).
    @discardableResult
    public func schedule(at deadline: Instant, _ action: @escaping () -> Void) -> TimerID {
        insert(deadline: max(deadline, now), period: nil, action: action)
    }

    /// Schedules `action` to run once at a deadline worked out only as far as needed: an utterance's end, known
    /// only once enough of its audio is synthesized (and never, when something cuts it first).
    ///
    /// The task takes its place in the order of insertion now, as if its deadline were known now: among tasks
    /// due at one instant it runs exactly where a task scheduled now with that deadline would. Whenever it is
    /// the next task due (no later than `earliest`, then no later than each later bound), `resolve` is asked with
    /// the horizon the answer must reach: the deadline of the next other task or of the clock's target,
    /// whichever is earlier (nil when there is neither; the answer must then be `.at`). An `.after` answer must
    /// lie past the horizon. Cancelling the task stops the questions.
    @discardableResult
    public func schedule(
        notBefore earliest: Instant, resolving resolve: @escaping (_ horizon: Instant?) -> DeadlineEstimate,
        _ action: @escaping () -> Void
    ) -> TimerID {
        let id = insert(deadline: max(earliest, now), period: nil, action: action)
        resolvers[id] = resolve
        return id
    }

    /// Schedules `action` to run once after `delay`.
    @discardableResult
    public func schedule(after delay: TimeSpan, _ action: @escaping () -> Void) -> TimerID {
        schedule(at: now + delay, action)
    }

    /// Schedules `action` to run at `first` and then every `period` until cancelled.
    ///
    /// A repeating task keeps its phase: each run is at `first + k · period`, whatever the task did.
    @discardableResult
    public func scheduleRepeating(every period: TimeSpan, startingAt first: Instant, _ action: @escaping () -> Void)
        -> TimerID
    {
        precondition(period > .zero, "a repeating timer needs a positive period")
        return insert(deadline: max(first, now), period: period, action: action)
    }

    /// Cancels a task; cancelling one that already ran (or was cancelled) does nothing.
    public func cancel(_ id: TimerID) {
        actions[id] = nil
        resolvers[id] = nil
    }

    /// True when the task is still pending.
    public func isPending(_ id: TimerID) -> Bool { actions[id] != nil }

    /// Runs every task due up to and including `target` in order, then sets `now` to `target`.
    ///
    /// A target before `now` leaves the clock where it is.
    public func advance(to target: Instant) {
        while let head = nextEntry(notAfter: target) {
            now = max(now, head.deadline)
            guard let action = actions[head.id] else { continue }
            if let period = head.period {
                reinsert(head, deadline: head.deadline + period)
            } else {
                actions[head.id] = nil
                resolvers[head.id] = nil
            }
            action()
        }
        now = max(now, target)
    }

    /// Advances by a span.
    public func advance(by span: TimeSpan) { advance(to: now + span) }

    /// Runs tasks until none is left or the clock would pass `limit`; returns the instant reached.
    @discardableResult
    public func runUntilIdle(limit: Instant) -> Instant {
        while let deadline = nextDeadline, deadline <= limit {
            advance(to: deadline)
        }
        return now
    }

    private func insert(deadline: Instant, period: TimeSpan?, action: @escaping () -> Void) -> TimerID {
        let id = TimerID(raw: nextID)
        nextID += 1
        actions[id] = action
        push(Entry(deadline: deadline, sequence: takeSequence(), id: id, period: period))
        return id
    }

    private func reinsert(_ entry: Entry, deadline: Instant) {
        var next = entry
        next.deadline = deadline
        next.sequence = takeSequence()
        push(next)
    }

    private func takeSequence() -> Int {
        defer { nextSequence += 1 }
        return nextSequence
    }

    private func nextEntry(notAfter target: Instant) -> Entry? {
        settleHead(notAfter: target)
        guard let head = heap.first, head.deadline <= target else { return nil }
        return pop()
    }

    /// Asks tasks with open deadlines at the head of the order (due no later than `target`, when given) until
    /// the head is a task whose deadline is known, or lies past `target`.
    private func settleHead(notAfter target: Instant?) {
        while true {
            dropCancelledHead()
            guard let head = heap.first, let resolve = resolvers[head.id] else { return }
            if let target, head.deadline > target { return }
            _ = pop()
            dropCancelledHead()
            let horizon = [heap.first?.deadline, target].compactMap { $0 }.min()
            var entry = head
            switch resolve(horizon) {
            case .at(let deadline):
                resolvers[head.id] = nil
                entry.deadline = max(deadline, head.deadline)
            case .after(let bound):
                entry.deadline = max(bound, head.deadline)
            }
            // Same sequence: among equal deadlines it keeps the place it took when it was scheduled.
            if actions[head.id] != nil { push(entry) }
        }
    }

    private func dropCancelledHead() {
        while let head = heap.first, actions[head.id] == nil { _ = pop() }
    }

    // MARK: Binary heap ordered by (deadline, sequence)

    private static func before(_ a: Entry, _ b: Entry) -> Bool {
        a.deadline != b.deadline ? a.deadline < b.deadline : a.sequence < b.sequence
    }

    private func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func pop() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var best = parent
            if left < heap.count, Self.before(heap[left], heap[best]) { best = left }
            if right < heap.count, Self.before(heap[right], heap[best]) { best = right }
            if best == parent { break }
            heap.swapAt(parent, best)
            parent = best
        }
        return top
    }
}
