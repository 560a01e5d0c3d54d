import EarshotSystem
import Foundation

/// espeak-ng started on a background thread while a command reads its scripts.
///
/// A command that will synthesize (``Command/startsEngineEarly(_:context:)``) needs the engine only after it has
/// parsed its scripts and loaded its voices; started at once, the engine's set-up (its private data folder,
/// espeak-ng's start, the standard voice) overlaps that work on the other core. The command's
/// own start then finds the engine ready, or waits for it. A start that fails is left for the command: its own
/// start meets the same failure and reports it.
enum EngineWarmUp {
    private static let condition = NSCondition()
    nonisolated(unsafe) private static var running = false

    /// Starts espeak-ng with the custom variants of `voicesDirectory` on a background thread.
    static func start(voicesDirectory: String?) {
        condition.withLock { running = true }
        let thread = Thread {
            _ = try? EspeakSynthesizer.shared(voicesDirectory: voicesDirectory)
            condition.withLock {
                running = false
                condition.broadcast()
            }
        }
        thread.name = "earshot.warm-up"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Waits for a start under way: the process must not end while it makes its data folder (which would then
    /// outlive the process).
    static func finish() {
        condition.withLock {
            while running { condition.wait() }
        }
    }
}
