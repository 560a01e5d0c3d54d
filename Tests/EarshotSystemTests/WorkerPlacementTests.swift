import CEarshot
import EarshotCore
@testable import EarshotSystem
import Foundation
import Testing

/// Where a phrase's worker runs. A caller that waits for a whole phrase does nothing while its worker
/// synthesizes, so both are held to the caller's processor for that phrase (no wake-up crosses to the other
/// processor); the caller gets its own set of processors back as soon as the phrase is in, and a streaming caller's
/// worker may run anywhere the caller may.
@Suite(.enabled(if: Processors.of("thread-self").count >= 2, "needs two processors"))
struct WorkerPlacementTests {
    /// What one chunk of a phrase saw, on the thread that waits for it.
    struct Placement {
        var worker: Int32
        var processor: Int32
        var caller: Set<Int>
        var workerProcessors: Set<Int>
    }

    static func placement() -> Placement {
        let worker = EspeakSynthesizer.workerOfCallingThread
        return Placement(
            worker: worker, processor: Processors.current(), caller: Processors.of("thread-self"),
            workerProcessors: Processors.of("\(worker)"))
    }

    /// Synthesizes `text` and returns what its first chunk saw.
    static func speak(_ text: String, streaming: Bool) throws -> Placement? {
        let synthesizer = try SpeechFixtures.synthesizer()
        var seen: Placement?
        try synthesizer.synthesize(text, voice: .standard, frameLimit: nil, streaming: streaming) { _, _ in
            if seen == nil { seen = placement() }
            return true
        }
        return seen
    }

    @Test func aWholePhraseIsSynthesizedOnTheProcessorOfTheThreadWaitingForIt() throws {
        let before = Processors.of("thread-self")
        let started = ContinuousClock.now
        let seen = try #require(try Self.speak("The worker runs where its caller waits.", streaming: false))
        #expect(seen.worker > 0, "no worker was named during the phrase")
        // A phrase that took longer than the hold limit (a very busy machine) was let go before its audio came.
        if ContinuousClock.now - started < .milliseconds(Int(EARSHOT_HOLD_LIMIT_MS)) {
            #expect(seen.caller == [Int(seen.processor)], "the waiting thread could run on \(seen.caller)")
            #expect(
                seen.workerProcessors == [Int(seen.processor)],
                "the worker could run on \(seen.workerProcessors), its caller was on \(seen.processor)")
        }
        #expect(Processors.of("thread-self") == before, "the caller's processors were not given back")
        #expect(EspeakSynthesizer.workerOfCallingThread == 0)
    }

    /// Two phrases in flight at once (``PhrasesInFlight``) hold two slots, so they run on two processors; each notes
    /// where it ran while the first still waits inside its synthesis.
    @Test func phrasesInFlightAtTheSameTimeRunOnDifferentProcessors() throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        synthesizer.concurrency = max(2, synthesizer.concurrency)
        let seen = try PhrasesInFlight.observe(
            "The first phrase waits.", "The second one speaks.", streaming: false, with: synthesizer, Self.placement)
        #expect(seen.problems.isEmpty, "\(seen.problems)")
        let one = try #require(seen.first)
        let two = try #require(seen.second)
        #expect(one.worker != two.worker)
        #expect(one.caller.count == 1 && two.caller.count == 1, "held to \(one.caller) and \(two.caller)")
        #expect(one.caller != two.caller, "both phrases were held to \(one.caller)")
        #expect(one.workerProcessors == one.caller && two.workerProcessors == two.caller)
    }

    /// A phrase still in flight after the hold limit lets its caller and worker go: a long phrase (about ten minutes
    /// of speech, a few hundred milliseconds of synthesis, many messages) is handed over in chunks well after the
    /// limit, and by then neither is held.
    @Test func aPhraseInFlightPastTheHoldLimitLetsItsCallerAndWorkerGo() throws {
        let caller = Processors.of("thread-self")
        let synthesizer = try SpeechFixtures.synthesizer()
        let started = ContinuousClock.now
        var late: Placement?
        var chunks = 0
        let text = Array(repeating: WholePhraseTests.long, count: 8).joined(separator: " ")
        try synthesizer.synthesize(text, voice: .standard, frameLimit: nil, streaming: false) { _, _ in
            chunks += 1
            if ContinuousClock.now - started > .milliseconds(2 * Int(EARSHOT_HOLD_LIMIT_MS)) { late = Self.placement() }
            return true
        }
        let seen = try #require(late, "all \(chunks) chunks came within twice the hold limit")
        #expect(seen.caller == caller, "still held to \(seen.caller)")
        #expect(seen.workerProcessors == caller, "the worker still held to \(seen.workerProcessors)")
        #expect(Processors.of("thread-self") == caller)
    }

    /// A streaming caller plays chunks while its worker makes the next ones: the worker, held to one processor by
    /// an earlier whole phrase, is let loose again. Workers are per slot, so the two calls are repeated until a
    /// streaming one meets a worker a whole one held (other suites may hold the lowest slot meanwhile).
    @Test func aStreamedPhraseLetsItsWorkerRunAnywhereItsCallerMay() throws {
        let caller = Processors.of("thread-self")
        var held: Set<Int32> = []
        var met = 0
        for _ in 0..<50 where met < 3 {
            if let whole = try Self.speak("Held to one processor.", streaming: false) { held.insert(whole.worker) }
            let streamed = try #require(try Self.speak("Free to run anywhere.", streaming: true))
            #expect(streamed.caller == caller, "a streaming caller was held to \(streamed.caller)")
            #expect(
                streamed.workerProcessors == caller,
                "a streaming worker could run on \(streamed.workerProcessors), its caller on \(caller)")
            if held.contains(streamed.worker) { met += 1 }
        }
        #expect(met > 0, "no streaming phrase met a worker a whole phrase had held")
    }
}

/// Processor sets, as the kernel reports them.
enum Processors {
    /// The processor the calling thread runs on: field 39 of `/proc/thread-self/stat` (the fields after the
    /// command name, which is in parentheses, start at field 3).
    static func current() -> Int32 {
        let stat = (try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return -1 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 36 ? Int32(fields[36]) ?? -1 : -1
    }

    /// The processors `/proc/TASK/status` says the task may run on (`Cpus_allowed_list`, such as `0-3,6`).
    static func of(_ task: String) -> Set<Int> {
        let status = (try? String(contentsOfFile: "/proc/\(task)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else {
            return []
        }
        var result: Set<Int> = []
        for range in line.dropFirst("Cpus_allowed_list:".count).split(separator: ",") {
            let bounds = range.split(separator: "-").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            if let first = bounds.first, let last = bounds.last, first <= last { result.formUnion(first...last) }
        }
        return result
    }
}
