import EarshotTestSupport
import Foundation
import Testing

@testable import EarshotCore

/// Two threads asking a library about the same phrase at once (two scripts of a folder run): one of them reads the
/// timing store or synthesizes, the other waits for it and takes its answer.
@Suite struct SpeechLibraryConcurrencyTests {
    /// A synthesizer that counts its calls and, while `held`, keeps each call waiting until released.
    final class CountingSynthesizer: Synthesizer, @unchecked Sendable {
        let sampleRate = 8000
        private let inner = FixedSynthesizer()
        private let condition = NSCondition()
        private var calls = 0
        private var held: Bool

        init(held: Bool) { self.held = held }

        var callCount: Int { condition.withLock { calls } }

        func waitForCalls(_ count: Int) {
            condition.withLock { while calls < count { condition.wait() } }
        }

        func release() {
            condition.withLock {
                held = false
                condition.broadcast()
            }
        }

        func synthesize(_ text: String, voice: VoiceProfile, frameLimit: Int?) throws -> SynthesizedSpeech {
            condition.withLock {
                calls += 1
                condition.broadcast()
                while held { condition.wait() }
            }
            return try inner.synthesize(text, voice: voice, frameLimit: frameLimit)
        }
    }

    /// A timing store holding one complete timing; its first read waits until released.
    final class SlowStore: TimingStore, @unchecked Sendable {
        private let condition = NSCondition()
        private var entered = false
        private var held = true
        let timing: SpeechTiming

        init(timing: SpeechTiming) { self.timing = timing }

        func waitUntilEntered() { condition.withLock { while !entered { condition.wait() } } }

        func release() {
            condition.withLock {
                held = false
                condition.broadcast()
            }
        }

        func timing(of speechText: SpeechText, voice: VoiceProfile, sampleRate: Int) -> SpeechTiming? {
            condition.withLock {
                entered = true
                condition.broadcast()
                while held { condition.wait() }
            }
            return timing
        }

        func store(_ timing: SpeechTiming, of speechText: SpeechText, voice: VoiceProfile) {}
    }

    /// Runs `body` on a new thread; the returned closure waits for it.
    private func onThread(_ body: @escaping @Sendable () -> Void) -> () -> Void {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return { done.wait() }
    }

    @Test func aPhraseAskedTwiceAtOnceIsSynthesizedOnce() throws {
        let synthesizer = CountingSynthesizer(held: true)
        let library = SpeechLibrary(synthesizer: synthesizer, audioCacheLimit: 0)
        let first = onThread { _ = try? library.timing(for: "Results updated", voice: .standard) }
        synthesizer.waitForCalls(1)
        let second = onThread { _ = try? library.timing(for: "Results updated", voice: .standard) }
        // The second asker has had time to reach the library; a library without the wait synthesizes again here.
        Thread.sleep(forTimeInterval: 0.05)
        synthesizer.release()
        first()
        second()
        #expect(synthesizer.callCount == 1)
        #expect(library.statistics.synthesisCalls == 1)
    }

    @Test func aPhraseAskedWhileAnotherThreadReadsItsStoredTimingIsNotSynthesized() throws {
        let synthesizer = CountingSynthesizer(held: false)
        let stored = try SpeechLibrary(synthesizer: FixedSynthesizer(), audioCacheLimit: 0)
            .timing(for: "Results updated", voice: .standard)
        let store = SlowStore(timing: stored)
        let library = SpeechLibrary(synthesizer: synthesizer, audioCacheLimit: 0, timingStore: store)
        let first = onThread { _ = try? library.timing(for: "Results updated", voice: .standard) }
        store.waitUntilEntered()
        let second = onThread { _ = try? library.timing(for: "Results updated", voice: .standard) }
        Thread.sleep(forTimeInterval: 0.05)
        store.release()
        first()
        second()
        #expect(synthesizer.callCount == 0)
        #expect(library.statistics.storedTimings == 1)
        #expect(try library.timing(for: "Results updated", voice: .standard) == stored)
    }
}
