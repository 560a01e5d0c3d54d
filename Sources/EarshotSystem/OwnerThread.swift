import Foundation

/// A dedicated thread that runs submitted work one item at a time, in submission order.
///
/// espeak-ng keeps all its state in globals and is not re-entrant (measured on espeak-ng 1.51), and its synthesis
/// needs a large stack; so every espeak-ng call runs here, on one thread with a stack of our choosing.
/// Callers on any thread submit a closure and block until it has run. The thread lives as long as the
/// process (espeak-ng can never be re-initialized, so its owner never retires).
final class OwnerThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var thread: Thread?

    /// Starts the thread with `stackSize` bytes of stack.
    init(name: String, stackSize: Int) {
        let thread = Thread { [self] in self.run() }
        thread.name = name
        thread.stackSize = stackSize
        self.thread = thread
        thread.start()
    }

    /// Runs `body` on the owner thread and returns its result, blocking the caller until it is done.
    ///
    /// Called from the owner thread itself (from inside another job), `body` runs inline.
    func perform<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        if Thread.current === thread { return try body() }
        let result: Result<T, E> = withoutActuallyEscaping(body) { escapable in
            // The queued job reaches `escapable` only through the box, which lets go of it before the
            // caller resumes: the closure must not outlive this block.
            let box = JobBox<T, E>(body: escapable)
            let done = DispatchSemaphore(value: 0)
            enqueue {
                box.run()
                done.signal()
            }
            done.wait()
            guard let result = box.result else { preconditionFailure("owner thread ended a job without a result") }
            return result
        }
        return try result.get()
    }

    private func enqueue(_ job: @escaping () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}

/// Carries a job's closure to the owner thread and its result back to the waiting caller.
private final class JobBox<T, E: Error>: @unchecked Sendable {
    private var body: (() throws(E) -> T)?
    private(set) var result: Result<T, E>?

    init(body: @escaping () throws(E) -> T) { self.body = body }

    /// Runs the closure once and drops it.
    func run() {
        if let body { result = Result(catching: body) }
        body = nil
    }
}
