import Foundation
import Testing

@testable import EarshotCLI

/// What `samples` does with its renders on an interrupt: each is asked to stop, and one that will not is killed.
@Suite struct RunningChildrenTests {
    /// Starts `/bin/sh -c script` under `children` from a thread that does not block SIGTERM (a test runner's
    /// threads do, and a child would inherit that; `earshot` unblocks it at start), with a thread that waits for
    /// its end as a starter does. The script must leave no process of its own behind (Foundation learns that a
    /// child ended when every process holding its descriptors has).
    static func start(_ script: String, in children: RunningChildren) throws -> (Process, DispatchSemaphore) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // It says `ready` once its own signal settings are made: the test stops it only then.
        process.arguments = ["-c", script.replacingOccurrences(of: "READY", with: "echo ready;")]
        let output = Pipe()
        process.standardOutput = output
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        let seen = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let failure = Failure()
        Thread.detachNewThread {
            var interrupts = sigset_t()
            sigemptyset(&interrupts)
            sigaddset(&interrupts, SIGTERM)
            pthread_sigmask(SIG_UNBLOCK, &interrupts, nil)
            do {
                try children.start(process, after: {}, failed: { $0 })
            } catch {
                failure.error = error
                started.signal()
                return
            }
            started.signal()
            ended.wait()
            children.finished(process)
            seen.signal()
        }
        started.wait()
        if let error = failure.error { throw error }
        _ = output.fileHandleForReading.availableData
        return (process, seen)
    }

    final class Failure: @unchecked Sendable {
        var error: (any Error)?
    }

    /// `stopAll` on another thread; false when it has not returned within `limit` seconds (an interrupt that would
    /// hang).
    static func stopAll(_ children: RunningChildren, patience: TimeInterval, limit: Int) -> Bool {
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            children.stopAll(patience: patience)
            returned.signal()
        }
        return returned.wait(timeout: .now() + .seconds(limit)) == .success
    }

    @Test func aChildThatStopsOnSIGTERMEndsByIt() throws {
        let children = RunningChildren()
        // `exec`: the shell becomes the sleep, which ends on SIGTERM.
        let (process, seen) = try Self.start("READY exec sleep 60", in: children)
        #expect(Self.stopAll(children, patience: 60, limit: 120))
        seen.wait()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGTERM)
    }

    @Test func aChildThatIgnoresSIGTERMIsKilledAfterThePatience() throws {
        let children = RunningChildren()
        // An ignored signal stays ignored across `exec`: the sleep ignores SIGTERM.
        let (process, seen) = try Self.start("trap '' TERM; READY exec sleep 60", in: children)
        let returned = Self.stopAll(children, patience: 0.5, limit: 30)
        if !returned { kill(process.processIdentifier, SIGKILL) }
        #expect(returned, "stopAll waited on a child that will not stop")
        seen.wait()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGKILL)
    }

    @Test func nothingStartsOnceStopped() throws {
        let children = RunningChildren()
        #expect(Self.stopAll(children, patience: 1, limit: 30))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        let prepared = Failure()
        #expect(throws: CancellationError.self) {
            try children.start(process, after: { prepared.error = CancellationError() }, failed: { $0 })
        }
        #expect(prepared.error == nil && !process.isRunning)
    }
}
