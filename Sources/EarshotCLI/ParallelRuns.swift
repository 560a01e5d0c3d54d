import Foundation

/// Runs independent items on up to `jobs` threads and hands each result back in item order, on the calling
/// thread, as soon as it and every item before it are done.
///
/// Output therefore comes out in the same order, with the same bytes, whatever the number of jobs: `deliver`
/// sees item 0, then 1, … exactly as a serial loop would. The first error (in item order, from `work` or
/// `deliver`) stops the run: no new item starts, the items in flight finish, and the error is rethrown. With
/// one job everything runs serially on the calling thread. `work` must be safe to call from several threads.
///
/// `startOrder` (a permutation of the items) is the order the threads take items in, for example the longest
/// first, so that one long item started last does not run alone at the end; delivery stays in item order.
enum ParallelRuns {
    static func forEach<T>(
        count: Int, jobs: Int, startOrder: [Int]? = nil, work: @escaping (Int) throws -> T,
        deliver: (Int, T) throws -> Void
    ) throws {
        guard jobs > 1, count > 1 else {
            for index in 0..<count { try deliver(index, try work(index)) }
            return
        }
        let order = startOrder.flatMap { $0.count == count && Set($0) == Set(0..<count) ? $0 : nil }
        let state = State<T>(count: count, order: order ?? Array(0..<count))
        let box = WorkBox(work)
        let workers = min(jobs, count)
        for _ in 0..<workers {
            let thread = Thread { state.drain(box.work) }
            thread.stackSize = 4 << 20
            thread.start()
        }
        defer { state.stopAndWait(workers: workers) }
        for index in 0..<count {
            try deliver(index, try state.result(at: index).get())
        }
    }

    /// Carries a non-Sendable closure to the worker threads; the caller promises it is thread-safe.
    private final class WorkBox<T>: @unchecked Sendable {
        let work: (Int) throws -> T
        init(_ work: @escaping (Int) throws -> T) { self.work = work }
    }

    /// The next item to take, the results so far, and how many workers have finished.
    private final class State<T>: @unchecked Sendable {
        private let condition = NSCondition()
        private var results: [Result<T, any Error>?]
        /// The items in the order they are started.
        private let order: [Int]
        private var next = 0
        private var stopped = false
        private var finished = 0

        init(count: Int, order: [Int]) {
            results = Array(repeating: nil, count: count)
            self.order = order
        }

        /// A worker's loop: take items in order until none is left or the run stopped.
        func drain(_ work: (Int) throws -> T) {
            while true {
                let index = condition.withLock { () -> Int? in
                    guard !stopped, next < results.count else { return nil }
                    defer { next += 1 }
                    return order[next]
                }
                guard let index else { break }
                let result = Result { try work(index) }
                condition.withLock {
                    results[index] = result
                    condition.broadcast()
                }
            }
            condition.withLock {
                finished += 1
                condition.broadcast()
            }
        }

        /// Waits for item `index`'s result.
        func result(at index: Int) -> Result<T, any Error> {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if let result = results[index] {
                    results[index] = nil  // delivered: let it go
                    return result
                }
                condition.wait()
            }
        }

        /// Lets no new item start and waits until every worker has left its loop.
        func stopAndWait(workers: Int) {
            condition.lock()
            stopped = true
            while finished < workers { condition.wait() }
            condition.unlock()
        }
    }
}
