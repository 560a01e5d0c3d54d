import EarshotCore
@testable import EarshotSystem
import Foundation
import Testing

/// The same text with the same voice gives the same samples whatever espeak-ng said before: each phrase is
/// synthesized from espeak-ng's initialized state, not from the state the previous phrase left.
@Suite(.serialized) struct SynthesisHistoryTests {
    /// Phrases whose length drifted most with history on espeak-ng 1.51 ("j" 294 ms fresh, 352 ms mid-render).
    @Test(arguments: ["j", "Pay now, button", "Order 1042 is ready."])
    func aPhraseSoundsTheSameAfterAWarmUpOfOtherPhrasesAndVoices(phrase: String) throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        let first = try synthesizer.synthesize(phrase, voice: .standard)
        // Unrelated speech in other voices, rates and variants, some of it stopped early.
        for (index, text) in ["Pay now, button", "Order 1042 is ready.", "j", "Results updated", "11:59"].enumerated() {
            let voice = SpeechFixtures.voice(rate: 120 + 60 * index, variant: index.isMultiple(of: 2) ? "f3" : nil)
            _ = try synthesizer.synthesize(text, voice: voice)
            _ = try synthesizer.synthesize(SpeechFixtures.twentyWords, voice: voice, frameLimit: 3_000 * (index + 1))
        }
        let again = try synthesizer.synthesize(phrase, voice: .standard)
        #expect(again.frameCount == first.frameCount, "\(phrase): \(first.frameCount) then \(again.frameCount) frames")
        let sameSamples = again.samples == first.samples
        let sameWords = again.words == first.words
        #expect(sameSamples, "\(phrase): the samples differ")
        #expect(sameWords, "\(phrase): word starts \(first.words.map(\.frame)) then \(again.words.map(\.frame))")
    }

    /// Selecting a voice or a rate queues commands for espeak-ng's wave generator that only a synthesis
    /// consumes (a ring of 170); voice changes by the hundred must leave a phrase as it was after each one.
    @Test func hundredsOfVoiceChangesLeaveAPhraseAsItWas() throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        let first = try synthesizer.synthesize("j", voice: .standard)
        var changed: [Int] = []
        for index in 0..<180 {
            try synthesizer.validate(
                SpeechFixtures.voice(rate: 100 + index, variant: index.isMultiple(of: 2) ? "f3" : nil))
            let again = try synthesizer.synthesize("j", voice: .standard)
            if again.samples != first.samples { changed.append(index) }
        }
        #expect(changed.isEmpty, "\"j\" changed after voice changes \(changed)")
    }

    /// Processes below this one that run this very executable: the synthesizer's workers, and the zygote they are
    /// forked from (killing it ends its workers too).
    static func helpers() -> [Int32] {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        func children(of process: String) -> [Int32] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process)/task")) ?? []
            return tasks.flatMap { task in
                ((try? String(contentsOfFile: "/proc/\(process)/task/\(task)/children", encoding: .utf8)) ?? "")
                    .split(separator: " ").compactMap { Int32($0) }
            }
            .filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\($0)/exe")) == me }
        }
        let direct = children(of: "self")
        return direct + direct.flatMap { children(of: String($0)) }
    }

    @Test func synthesisOutlivesItsHelperProcess() throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        let first = try synthesizer.synthesize("Results updated", voice: .standard)
        let helpers = Self.helpers()
        #expect(!helpers.isEmpty, "no helper process found")
        for pid in helpers { kill(pid, SIGKILL) }
        let again = try synthesizer.synthesize("Results updated", voice: .standard)
        let same = again.samples == first.samples
        #expect(same, "\(first.frameCount) frames, then \(again.frameCount) after the helper was killed")
    }

    @Test func aPhraseWhoseHelperDiesMidwayComesOutWhole() throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        let whole = try synthesizer.synthesize(SpeechFixtures.twentyWords, voice: .standard)
        var samples: [Int16] = []
        var killed = false
        let stopped = try synthesizer.synthesize(SpeechFixtures.twentyWords, voice: .standard, frameLimit: nil) {
            chunk, _ in
            samples += chunk
            if !killed, samples.count > 22_050 {
                for pid in Self.helpers() { kill(pid, SIGKILL) }
                killed = true
            }
            return true
        }
        #expect(killed && !stopped)
        let same = samples == whole.samples
        #expect(same, "\(whole.frameCount) frames whole, \(samples.count) with the helper killed after 1 s")
    }

    @Test func aPhraseStoppedByTheChunkHandlerLeavesTheNextOneWhole() throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        let whole = try synthesizer.synthesize("Results updated", voice: .standard)
        _ = try synthesizer.synthesize(SpeechFixtures.twentyWords, voice: .standard, frameLimit: nil) { _, _ in false }
        let after = try synthesizer.synthesize("Results updated", voice: .standard)
        let same = after.samples == whole.samples
        #expect(same, "\(whole.frameCount) frames, then \(after.frameCount) after a stopped phrase")
    }

    /// A worker speaks phrase after phrase; one the caller stops is stopped inside the worker, which lives on.
    @Test func aStoppedPhraseKeepsItsWorker() throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        _ = try synthesizer.synthesize("Results updated", voice: .standard)
        let before = Set(Self.helpers())
        var chunks = 0
        _ = try synthesizer.synthesize(SpeechFixtures.twentyWords, voice: .standard, frameLimit: nil) { _, _ in
            chunks += 1
            return false
        }
        #expect(chunks == 1)
        _ = try synthesizer.synthesize("Results updated", voice: .standard)
        let after = Set(Self.helpers())
        #expect(!before.isEmpty && before.isSubset(of: after), "workers \(before.sorted()), then \(after.sorted())")
    }

    /// A phrase synthesized whole whose caller stops listening leaves its worker as it was: the worker looks for no
    /// stop request while it speaks such a phrase, and skips the one left waiting before its next phrase.
    @Test func aWholePhraseTheCallerStopsListeningToKeepsItsWorker() throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        let fresh = try synthesizer.synthesize("Results updated", voice: .standard)
        let before = Set(Self.helpers())
        var chunks = 0
        let stopped = try synthesizer.synthesize(
            WholePhraseTests.long, voice: .standard, frameLimit: nil, streaming: false
        ) { _, _ in
            chunks += 1
            return false
        }
        #expect(stopped && chunks == 1)
        let next = try synthesizer.synthesize("Results updated", voice: .standard)
        let after = Set(Self.helpers())
        #expect(!before.isEmpty && before.isSubset(of: after), "workers \(before.sorted()), then \(after.sorted())")
        let same = next.samples == fresh.samples
        #expect(same)
    }

    /// Writing the copied memory back before each phrase keeps a worker's memory where it was: a thousand
    /// phrases leave no trace. A worker's size is read while one of these phrases is in it, from the phrase's own
    /// chunk handler, so only workers these phrases used count, each at a moment it was at work for them. Reading
    /// every worker of the process once counted another suite's worker that was still being forked: a forked
    /// process's size climbs while the kernel copies its page tables (seen here from 140 to 265 MB in a test run,
    /// the test process's own size), and CI read one as grown by 70 MB.
    @Test func aWorkerKeepsItsSizeOverAThousandPhrases() throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        let phrases = ["j", "Results updated", "Order 1042 is ready.", "Pay now, button"]
        for phrase in phrases { _ = try synthesizer.synthesize(phrase, voice: .standard) }
        // Per worker: its size the first and the last time one of these phrases was in it, and how many were.
        var sizes: [Int32: (first: Int, last: Int, phrases: Int)] = [:]
        for index in 0..<1_000 {
            var measured = false
            try synthesizer.synthesize(
                phrases[index % phrases.count], voice: .standard, frameLimit: nil, streaming: false
            ) {
                _, _ in
                let worker = EspeakSynthesizer.workerOfCallingThread
                if !measured, let size = Self.residentKB(worker) {
                    measured = true
                    let seen = sizes[worker]
                    sizes[worker] = (seen?.first ?? size, size, (seen?.phrases ?? 0) + 1)
                }
                return true
            }
        }
        let grown = sizes.filter { $0.value.last - $0.value.first > 2_048 }.map {
            ($0.key, $0.value.last - $0.value.first)
        }
        #expect(sizes.values.contains { $0.phrases >= 100 }, "no worker took a hundred of the phrases: \(sizes)")
        #expect(grown.isEmpty, "workers grew (pid, KB): \(grown)")
    }

    /// A worker copies the memory espeak-ng's state lives in, the allocator's heaps included, to write it back
    /// before each phrase. Workers are forked from a small process (the zygote), so a worker started after this
    /// process's heaps grew copies what they held when the zygote was made, not what they hold now (forked from this
    /// process, a worker started after a long script was laid out copied 12.7 MB, and compared more of it before
    /// every phrase the longer the run went on).
    @Test func aWorkerStartedAfterTheHeapGrewCopiesLittle() throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        _ = try synthesizer.synthesize("j", voice: .standard)
        // A new zygote, made now from this process (a zygote that dies is replaced at the next worker's start); then
        // a first worker from it, for voices no other test speaks with.
        for pid in Self.helpers() { kill(pid, SIGKILL) }
        func privateKBOfWorker(variant: String) throws -> Int {
            var privateKB: Int?
            let voice = SpeechFixtures.voice(rate: 175, variant: variant)
            _ = try synthesizer.synthesize("Order 1042 is ready.", voice: voice, frameLimit: nil, streaming: false) {
                _, _ in
                if privateKB == nil { privateKB = Self.privateDirtyKB(EspeakSynthesizer.workerOfCallingThread) }
                return true
            }
            return try #require(privateKB, "the memory of the worker for \(variant) could not be read")
        }
        let before = try privateKBOfWorker(variant: "m6")
        // About 40 MB in small blocks, which the allocator takes from its heaps.
        var blocks: [[UInt8]] = []
        blocks.reserveCapacity(300_000)
        for index in 0..<300_000 { blocks.append([UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 100)) }
        defer { withExtendedLifetime(blocks) {} }
        let after = try privateKBOfWorker(variant: "m7")
        #expect(after < before + 16_000, "the later worker wrote \(after) KB of its own, the first \(before) KB")
    }

    /// Memory a process wrote that no other process shares, in KB (its copy of espeak-ng's memory is most of it).
    static func privateDirtyKB(_ pid: Int32) -> Int? {
        let rollup = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
        guard let line = rollup.split(separator: "\n").first(where: { $0.hasPrefix("Private_Dirty:") }) else {
            return nil
        }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    /// A process's resident memory in KB, from /proc.
    static func residentKB(_ pid: Int32) -> Int? {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
}
