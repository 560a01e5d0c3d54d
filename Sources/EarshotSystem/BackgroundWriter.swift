import Foundation

/// A thread that runs submitted jobs in order, started at the first job. It keeps the normal priority: a lower one
/// starved it while parallel jobs kept both cores busy, and the run then waited for it at the end (measured).
final class BackgroundWriter: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var running = false
    private var started = false

    /// Queues `job`.
    func submit(_ job: @escaping () -> Void) {
        condition.withLock {
            jobs.append(job)
            if !started {
                started = true
                let thread = Thread { [self] in run() }
                thread.name = "earshot.cache-writer"
                thread.start()
            }
            condition.broadcast()
        }
    }

    /// Waits until every job submitted so far has run.
    func wait() {
        condition.withLock {
            while running || !jobs.isEmpty { condition.wait() }
        }
    }

    private func run() {
        while true {
            let job = condition.withLock { () -> () -> Void in
                while jobs.isEmpty { condition.wait() }
                running = true
                return jobs.removeFirst()
            }
            job()
            condition.withLock {
                running = false
                condition.broadcast()
            }
        }
    }
}
