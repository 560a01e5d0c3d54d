import EarshotAudio
import EarshotSystem
import Foundation

/// Ctrl-C or SIGTERM during a command that writes files: every hidden temporary is removed before the process
/// exits (130 for SIGINT, 143 for SIGTERM), so an interrupted render leaves neither a partial file nor litter.
/// Commands with their own handling (`listen`: silence the device, restore the terminal) opt out.
enum InterruptCleanup {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    private static let actionsLock = NSLock()
    nonisolated(unsafe) private static var actions: [@Sendable () -> Void] = []
    nonisolated(unsafe) private static var handling = false

    /// Runs `action` when an interrupt arrives, once no file is being moved into place and none can start, just
    /// before the process ends: a command that starts processes of its own stops them there, then takes back what
    /// they wrote. Actions run in the order they were added, once.
    static func onInterrupt(_ action: @escaping @Sendable () -> Void) {
        actionsLock.withLock { actions.append(action) }
    }

    /// True once an interrupt handler has begun (it ends the process).
    static var isHandling: Bool { actionsLock.withLock { handling } }

    /// Installs the handlers once per process.
    static func install() {
        guard sources.isEmpty else { return }
        // A process may start with these signals blocked (its parent's mask: a test runner's thread, a CI agent):
        // they would then never reach the handlers, and one already pending would be dropped by SIG_IGN below.
        // Unblocked first, a pending one ends the process now, before it has written anything.
        var interrupts = sigset_t()
        sigemptyset(&interrupts)
        sigaddset(&interrupts, SIGINT)
        sigaddset(&interrupts, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &interrupts, nil)
        sources = [(SIGINT, Int32(130)), (SIGTERM, Int32(143))].map { number, status in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            // Waits for a render's files to finish moving into place together, so the signal leaves the whole
            // old set or the whole new one, then removes every hidden temporary and the private espeak-ng data
            // folder (the process ends with _exit, which skips the atexit handler that removes it).
            source.setEventHandler {
                let first = actionsLock.withLock { () -> Bool in
                    defer { handling = true }
                    return !handling
                }
                // A second signal while the first is handled: the first ends the process.
                guard first else { while true { sleep(1) } }
                // The actions run once no publish is under way and none can start, so what they take back cannot
                // be written again behind them.
                PendingTemporaries.removeAllAndExit(status: status) {
                    for action in actionsLock.withLock({ actions }) { action() }
                    EngineWarmUp.finish()  // its data folder, when it is making one, is then there to remove
                    EspeakSynthesizer.removePrivateDataFolders()
                }
            }
            source.resume()
            return source
        }
    }

    /// Waits for the process to end when an interrupt handler has started its clean-up (it ends the process
    /// with the signal's status); returns at once otherwise.
    static func yieldToARunningInterrupt() {
        guard isHandling || PendingTemporaries.isClosed else { return }
        while true { sleep(1) }
    }
}
