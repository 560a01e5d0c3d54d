import CEarshot
import Foundation

/// The slots phrases are synthesized through, handed to one caller at a time.
///
/// Each slot keeps a worker process per voice, forked from the fixed espeak-ng state (see
/// ``EspeakSynthesizer``). A caller takes a free slot, has the owner thread start the slot's worker for its
/// voice when none runs (forking only ever happens from the fixed state, on the thread that owns
/// espeak-ng), then talks to it over its sockets on its own thread: synthesis in several slots runs in
/// parallel, and the owner thread is never held during a synthesis. Workers start lazily, so a serial run
/// in one voice forks one worker.
final class SynthesisSlots: @unchecked Sendable {
    private let condition = NSCondition()
    private var free: [Int32]
    private var limit: Int
    private var busy = 0
    private var peak = 0

    /// A pool of at most `limit` slots in use at once (clamped to 1 ... `EARSHOT_SYNTHESIS_SLOTS`).
    init(limit: Int) {
        self.limit = Self.clamp(limit)
        free = (0..<Int32(EARSHOT_SYNTHESIS_SLOTS)).reversed()
    }

    private static func clamp(_ limit: Int) -> Int { min(max(limit, 1), Int(EARSHOT_SYNTHESIS_SLOTS)) }

    /// How many phrases may be synthesized at the same time.
    var concurrency: Int {
        get { condition.withLock { limit } }
        set {
            condition.withLock {
                limit = Self.clamp(newValue)
                condition.broadcast()
            }
        }
    }

    /// The most slots ever in use at the same time.
    var peakInUse: Int { condition.withLock { peak } }

    /// Runs `body` with a slot no other caller holds, waiting for one to be free.
    func withSlot<T, E: Error>(_ body: (Int32) throws(E) -> T) throws(E) -> T {
        condition.lock()
        while busy >= limit || free.isEmpty { condition.wait() }
        busy += 1
        peak = max(peak, busy)
        // The lowest free slot, so a serial run always uses slot 0 and its workers.
        let slot = free.removeLast()
        condition.unlock()
        defer {
            condition.withLock {
                busy -= 1
                free.append(slot)
                free.sort(by: >)
                condition.signal()
            }
        }
        return try body(slot)
    }
}
