import EarshotCore
import EarshotScript
import Foundation

/// Drives one `Simulation` from a real-time clock, with its speech on a ``LivePlayer``: live mode.
///
/// There is no second copy of any rule here. The loop, on the thread that calls ``run(scriptEnd:settleLimit:)``:
///
/// 1. Takes the user actions other threads ``post(_:)``ed and performs them at the real instant.
/// 2. Calls `simulation.advance(to:)` with the real elapsed time; the scheduler runs every task due, each at its
///    own deadline, so the timeline is the headless one.
/// 3. Routes the simulation's signals: `.started` hands the utterance's samples (cached from the timing pass)
///    to the player; `.cut` makes the player stop at once and measure where it stopped.
/// 4. Sleeps until the scheduler's next deadline, or until woken by a posted action or ``stop()``.
///
/// A scripted run ends exactly as `ScenarioRunner.run` does (the script's end, then settling in the same
/// steps), so its transcript is the headless transcript.
public final class LiveSession: @unchecked Sendable {
    /// Why a run ended.
    public enum Ending: Sendable {
        /// The script's end was reached and speech settled.
        case scriptEnded
        /// ``stop()`` was called (Ctrl-C, Esc, a switch of script).
        case stopped
        /// The audio device failed mid-session (unplugged, server gone).
        case deviceLost(ALSAError)
    }

    /// The engine.
    public let simulation: Simulation
    /// Where speech sounds; nil runs the engine in real time silently.
    public let player: LivePlayer?
    /// The real-time clock; restarted when a run begins, so engine instants are clock instants.
    public let clock: RealTimeClock
    /// Called on the loop's thread for every signal, after the player was told.
    public var onSignal: ((SpeechSignal) -> Void)?

    private let lock = NSLock()
    private var inbox: [UserAction] = []
    private var stopRequested = false
    private var audioFailure: (any Error)?
    private let wakeup = DispatchSemaphore(value: 0)

    /// Creates a session over a prepared simulation (see `ScenarioRunner.prepare`).
    public init(simulation: Simulation, player: LivePlayer?, clock: RealTimeClock) {
        self.simulation = simulation
        self.player = player
        self.clock = clock
        simulation.onSignal = { [unowned self] signal in route(signal) }
    }

    /// Performs a user action at the real instant the loop takes it (within a millisecond). Safe from any thread.
    public func post(_ action: UserAction) {
        lock.withLock { inbox.append(action) }
        wakeup.signal()
    }

    /// Ends the run: sound stops at once, the loop finishes the timeline and returns. Safe from any thread.
    public func stop() {
        lock.withLock { stopRequested = true }
        player?.silence()
        wakeup.signal()
    }

    /// Runs until the script's end (then speech settles, as headless) or, with `scriptEnd` nil, until ``stop()``.
    ///
    /// The simulation is finished when this returns; its timeline is complete.
    /// - Throws: a synthesizer failure from the engine.
    public func run(scriptEnd: Instant?, settleLimit: TimeSpan = ScenarioRunner.settleLimit) throws -> Ending {
        let never = Instant(nanoseconds: .max)
        let limit = scriptEnd.map { $0 + settleLimit } ?? never
        var target = scriptEnd ?? never
        clock.restart()
        while true {
            let (actions, stopping) = lock.withLock { () -> ([UserAction], Bool) in
                defer { inbox.removeAll() }
                return (inbox, stopRequested)
            }
            if let failure = player?.failure {
                try simulation.finish(at: min(clock.now, target))
                return .deviceLost(failure)
            }
            if stopping {
                try simulation.finish(at: min(clock.now, target))
                player?.silence()
                return .stopped
            }
            for action in actions {
                try simulation.advance(to: min(clock.now, target))
                simulation.perform(action)
            }
            try simulation.advance(to: min(clock.now, target))
            if let error = lock.withLock({ audioFailure }) { throw error }
            if scriptEnd != nil, simulation.now >= target {
                // The same settling steps as ScenarioRunner.run, so both runs end at the same instant.
                let busy = simulation.isSpeaking || simulation.scheduler.hasPendingOneShot
                if !busy || simulation.now >= limit {
                    try simulation.finish(at: simulation.now)
                    player?.waitUntilPlayed(timeout: .seconds(2))
                    return .scriptEnded
                }
                let next = simulation.scheduler.nextDeadline ?? limit
                target = min(limit, max(next, simulation.now + .milliseconds(100)))
                continue
            }
            let wakeAt = min(simulation.scheduler.nextDeadline ?? target, target)
            let wait = min(wakeAt - clock.now, .milliseconds(50))
            if wait > .zero {
                _ = wakeup.wait(timeout: .now() + .nanoseconds(Int(wait.nanoseconds)))
            }
        }
    }

    private func route(_ signal: SpeechSignal) {
        if let player {
            switch signal {
            case .started(let record):
                do {
                    let samples = try simulation.speech.audio(for: record.utterance.text, voice: record.voice)
                    player.play(record.utterance.id, samples: samples, requestedAt: simulation.now)
                } catch {
                    lock.withLock { audioFailure = audioFailure ?? error }
                }
            case .cut(let id, let heardFrames):
                player.cut(id, engineHeardFrames: heardFrames, requestedAt: simulation.now)
            case .finished, .event:
                break
            }
        }
        onSignal?(signal)
    }
}
