import EarshotCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What became of one message: the three outcomes both Earshot and the server can report.
public enum MessageOutcome: String, Hashable, Sendable {
    /// Began and ended (server: BEGIN then END).
    case spoken
    /// Began and was stopped (server: BEGIN then CANCELED).
    case cut
    /// Never began (server: no BEGIN; CANCELED or nothing).
    case discarded
}

/// One message's fate, predicted by Earshot's speech-dispatcher profile and observed on the real server.
public struct ConformanceMessage: Hashable, Sendable {
    /// Its text.
    public var text: String
    /// Its priority.
    public var priority: SSIPPriority
    /// When it was sent, from the scenario's start.
    public var sentAt: TimeSpan
    /// Earshot's prediction.
    public var predicted: MessageOutcome
    /// What the server did.
    public var observed: MessageOutcome
    /// When Earshot starts it.
    public var predictedStart: TimeSpan?
    /// When the server began it (its BEGIN event as read).
    public var observedStart: TimeSpan?
    /// For a message Earshot cuts: how many of its words had started when it was cut.
    public var predictedWords: Int?
    /// For a message the server cut: how many of its words had started (index marks reached).
    public var observedWords: Int?

    /// True when it starts the moment it arrives in the prediction (not after something else ends).
    public var startsOnArrival: Bool { predictedStart == sentAt }
}

/// One scenario compared.
public struct ConformanceResult: Hashable, Sendable {
    /// The scenario's name.
    public var scenario: String
    /// Its messages, in the order sent.
    public var messages: [ConformanceMessage]
    /// The texts in the order Earshot starts them.
    public var predictedOrder: [String]
    /// The texts in the order the server began them.
    public var observedOrder: [String]

    /// Every outcome and the order agree.
    public var agrees: Bool { outcomesAgree && predictedOrder == observedOrder }
    /// Every message's outcome agrees.
    public var outcomesAgree: Bool { messages.allSatisfy { $0.predicted == $0.observed } }
}

/// Runs the same SSIP scenarios through Earshot's speech-dispatcher profile and through a real speech-dispatcher,
/// and compares what each message became, the order they began in, and when.
///
/// The prediction uses the server's own durations: a calibration pass speaks every text alone first and measures
/// BEGIN→END, and the engine's synthesizer is fitted to those lengths, so a difference in timing is the rules', not
/// the voices'. The calibration's spread (each text spoken twice) is the server's jitter.
public final class SpeechDispatcherConformance: @unchecked Sendable {
    /// The server spoken to.
    public let server: SpeechDispatcherServer
    private let synthesizer: any Synthesizer
    /// Measured BEGIN→END length of each text.
    public private(set) var durations: [String: TimeSpan] = [:]
    /// Measured send→BEGIN latencies of the calibration messages.
    public private(set) var latencies: [TimeSpan] = []
    /// Largest difference between two measurements of the same text's length.
    public private(set) var durationJitter: TimeSpan = .zero
    /// Measured send→BEGIN latencies of an `important` message cutting a `message` (the server stops the module
    /// first).
    public private(set) var cutLatencies: [TimeSpan] = []
    /// Measured END→BEGIN gaps between a message and the one queued behind it.
    public private(set) var handovers: [TimeSpan] = []

    /// Prepares a comparison against `server`; `synthesizer` gives word positions (espeak-ng).
    public init(server: SpeechDispatcherServer, synthesizer: any Synthesizer) {
        self.server = server
        self.synthesizer = synthesizer
    }

    /// Spread of the send→BEGIN latency (max − min): the server's start jitter.
    public var latencyJitter: TimeSpan {
        guard let low = latencies.min(), let high = latencies.max() else { return .zero }
        return high - low
    }

    /// The median send→BEGIN latency.
    public var medianLatency: TimeSpan {
        let sorted = latencies.sorted()
        return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
    }

    /// Speaks each text alone, `repeats` times, measuring its latency and length.
    ///
    /// - Throws: `SSIPError` when the server does not answer or never finishes a message.
    public func calibrate(_ texts: [String], repeats: Int = 2) throws {
        let client = try connect("calibration")
        defer { client.disconnect() }
        var lengths: [String: [TimeSpan]] = [:]
        for text in Set(texts).sorted() {
            for _ in 0..<repeats {
                let sent = RealTimeClock.monotonicNanoseconds()
                let id = try client.speak(text, priority: .message, marked: true)
                let finished = client.waitForEvents(timeout: .seconds(15)) { events in
                    events.contains { $0.messageID == id && ($0.kind == .end || $0.kind == .cancel) }
                }
                let events = client.receivedEvents.filter { $0.messageID == id }
                guard finished, let begin = events.first(where: { $0.kind == .begin }),
                    let end = events.first(where: { $0.kind == .end })
                else { throw SSIPError("\(server.socketPath): '\(text)' was never spoken to the end") }
                latencies.append(TimeSpan(nanoseconds: Int64(begin.monotonic &- sent)))
                lengths[text, default: []].append(TimeSpan(nanoseconds: Int64(end.monotonic &- begin.monotonic)))
            }
        }
        for _ in 0..<repeats {
            let first = try client.speak(SSIPScenario.long, priority: .message, marked: true)
            let second = try client.speak(SSIPScenario.short, priority: .message, marked: true)
            _ = client.waitForEvents(timeout: .seconds(15)) { events in
                events.contains { $0.messageID == second && ($0.kind == .end || $0.kind == .cancel) }
            }
            let events = client.receivedEvents
            if let end = events.first(where: { $0.messageID == first && $0.kind == .end }),
                let begin = events.first(where: { $0.messageID == second && $0.kind == .begin })
            {
                handovers.append(TimeSpan(nanoseconds: Int64(begin.monotonic &- end.monotonic)))
            }
            _ = try client.speak(SSIPScenario.long, priority: .message, marked: true)
            usleep(300_000)
            let sent = RealTimeClock.monotonicNanoseconds()
            let cutter = try client.speak(SSIPScenario.short, priority: .important, marked: true)
            _ = client.waitForEvents(timeout: .seconds(15)) { events in
                events.contains { $0.messageID == cutter && ($0.kind == .end || $0.kind == .cancel) }
            }
            if let begin = client.receivedEvents.first(where: { $0.messageID == cutter && $0.kind == .begin }) {
                cutLatencies.append(TimeSpan(nanoseconds: Int64(begin.monotonic &- sent)))
            }
        }
        for (text, measured) in lengths {
            let sorted = measured.sorted()
            durations[text] = sorted[sorted.count / 2]
            if let low = sorted.first, let high = sorted.last { durationJitter = max(durationJitter, high - low) }
        }
    }

    /// Calibrates against `server` and compares every scenario; `progress` hears each scenario's name as it runs.
    public static func run(
        _ scenarios: [SSIPScenario], server: SpeechDispatcherServer, progress: (String) -> Void = { _ in }
    ) throws -> ConformanceReport {
        let synthesizer = try EspeakSynthesizer.shared()
        let conformance = SpeechDispatcherConformance(server: server, synthesizer: synthesizer)
        progress("calibrating: each text spoken alone, twice")
        try conformance.calibrate(scenarios.flatMap(\.texts))
        var results: [ConformanceResult] = []
        for scenario in scenarios {
            progress(scenario.name)
            results.append(try conformance.compare(scenario))
        }
        return ConformanceReport(
            results: results, medianLatency: conformance.medianLatency, latencyJitter: conformance.latencyJitter,
            durationJitter: conformance.durationJitter, cutLatencies: conformance.cutLatencies,
            handovers: conformance.handovers)
    }

    /// Runs `scenario` on the engine and on the server and compares them.
    public func compare(_ scenario: SSIPScenario) throws -> ConformanceResult {
        let predicted = try predict(scenario)
        let observed = try observe(scenario)
        var messages: [ConformanceMessage] = []
        for (index, step) in scenario.steps.enumerated() {
            guard case .speak(let text, let priority, _) = step.command else { continue }
            let prediction = predicted.first { $0.step == index }
            let observation = observed.first { $0.step == index }
            messages.append(
                ConformanceMessage(
                    text: text.description, priority: priority, sentAt: step.at,
                    predicted: prediction?.outcome ?? .discarded, observed: observation?.outcome ?? .discarded,
                    predictedStart: prediction?.start, observedStart: observation?.start,
                    predictedWords: prediction?.words, observedWords: observation?.words))
        }
        func order(_ starts: [(String, TimeSpan?)]) -> [String] {
            starts.compactMap { text, start in start.map { (text, $0) } }.sorted { $0.1 < $1.1 }.map(\.0)
        }
        return ConformanceResult(
            scenario: scenario.name, messages: messages,
            predictedOrder: order(messages.map { ($0.text, $0.predictedStart) }),
            observedOrder: order(messages.map { ($0.text, $0.observedStart) }))
    }

    // MARK: Prediction

    struct Fate {
        var step: Int
        var outcome: MessageOutcome
        var start: TimeSpan?
        /// Words started before a cut.
        var words: Int? = nil
    }

    /// The engine's run of the scenario under the speech-dispatcher profile, with the measured durations.
    func predict(_ scenario: SSIPScenario) throws -> [Fate] {
        let fitted = FittedSynthesizer(base: synthesizer, durations: durations)
        let simulation = Simulation(
            screens: [Screen(name: "conformance", elements: [])],
            profile: UserProfile.voiceOver.reading(with: .speechDispatcher), speech: SpeechLibrary(synthesizer: fitted))
        for step in scenario.steps {
            simulation.schedule([.ssip(step.command)], at: .zero + step.at)
        }
        try simulation.finish(at: .zero + (scenario.steps.last?.at ?? .zero) + .seconds(20))
        var speakSteps = scenario.steps.indices.filter {
            if case .speak = scenario.steps[$0].command { return true }
            return false
        }[...]
        var fates: [Fate] = []
        for record in simulation.timeline.utterances {
            guard let step = speakSteps.popFirst() else { break }
            switch record.outcome {
            case .spoken(let start, _): fates.append(Fate(step: step, outcome: .spoken, start: start - .zero))
            case .interrupted(let start, _, let by):
                // The end of the run is not a cut the server would make.
                let outcome: MessageOutcome = by.description == "scenario ended" ? .spoken : .cut
                // Written words, as the lost words are counted (punctuation-only runs are not words).
                let words = WordAlignment.writtenWords(record.utterance.text).count
                let started = record.cutPoint.map { words - $0.lostWords.count + ($0.cutWord == nil ? 0 : 1) }
                fates.append(Fate(step: step, outcome: outcome, start: start - .zero, words: started))
            default: fates.append(Fate(step: step, outcome: .discarded, start: nil))
            }
        }
        return fates
    }

    // MARK: Observation

    private func connect(_ name: String) throws -> SSIPClient {
        let client = try SSIPClient(socketPath: server.socketPath)
        try client.command("SET SELF CLIENT_NAME earshot:conformance:\(name)")
        try client.command("SET SELF NOTIFICATION ALL ON")
        try client.command("SET SELF SSML_MODE on")
        return client
    }

    /// Plays the scenario to the server in real time and reads what became of each message.
    func observe(_ scenario: SSIPScenario) throws -> [Fate] {
        var clients: [String: SSIPClient] = [:]
        defer { for client in clients.values { client.disconnect() } }
        for step in scenario.steps where clients[step.command.client] == nil {
            clients[step.command.client] = try connect(step.command.client)
        }
        var sent: [(step: Int, client: String, id: Int)] = []
        let origin = RealTimeClock.monotonicNanoseconds()
        for (index, step) in scenario.steps.enumerated() {
            Self.sleep(until: origin &+ UInt64(step.at.nanoseconds))
            guard let client = clients[step.command.client] else { continue }
            switch step.command {
            case .speak(let text, let priority, _):
                sent.append(
                    (index, step.command.client, try client.speak(text.description, priority: priority, marked: true)))
            case .stop: try client.command("STOP self")
            case .cancel: try client.command("CANCEL self")
            }
        }
        // Settled when no message is speaking (its last event a BEGIN) and the events have been quiet for a while:
        // 300 ms once every message's last event is an END or CANCELED, else 1.5 s. A CANCELED message can still
        // begin later (the server's last-progress block keeps a copy under the same id), so the last event counts.
        let deadline = Date().addingTimeInterval(30)
        var quietSince = Date()
        var lastCount = -1
        while Date() < deadline {
            let events = clients.values.flatMap(\.receivedEvents)
            if events.count != lastCount {
                lastCount = events.count
                quietSince = Date()
            }
            var last: [Int: SSIPEvent.Kind] = [:]
            for event in events.sorted(by: { $0.monotonic < $1.monotonic }) where event.kind != .indexMark {
                last[event.messageID] = event.kind
            }
            let speaking = last.values.contains(.begin)
            let settled = sent.allSatisfy { last[$0.id] == .end || last[$0.id] == .cancel }
            let quiet = Date().timeIntervalSince(quietSince)
            if !speaking, quiet > (settled ? 0.3 : 1.5) { break }
            usleep(20_000)
        }
        return sent.map { message in
            let events = (clients[message.client]?.receivedEvents ?? []).filter { $0.messageID == message.id }
            let begin = events.first { $0.kind == .begin }
            let afterBegin = events.drop { $0.kind != .begin }
            let outcome: MessageOutcome
            if begin == nil {
                outcome = .discarded
            } else if afterBegin.contains(where: { $0.kind == .end }) {
                outcome = .spoken
            } else {
                outcome = .cut
            }
            let marks = events.filter { $0.kind == .indexMark }.compactMap { $0.mark.flatMap { Int($0) } }
            return Fate(
                step: message.step, outcome: outcome,
                start: begin.map { TimeSpan(nanoseconds: Int64($0.monotonic &- origin)) },
                words: outcome == .cut ? (marks.max() ?? -1) + 1 : nil)
        }
    }

    static func sleep(until monotonic: UInt64) {
        let now = RealTimeClock.monotonicNanoseconds()
        guard monotonic > now else { return }
        let wait = monotonic - now
        var request = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 { request = remaining }
    }
}

/// A synthesizer whose utterances last what the server measured: the base's audio stretched or trimmed to the
/// measured length, word positions scaled with it. Texts never measured keep the base's length.
struct FittedSynthesizer: Synthesizer {
    let base: any Synthesizer
    let durations: [String: TimeSpan]

    var sampleRate: Int { base.sampleRate }

    func synthesize(_ text: String, voice: VoiceProfile, frameLimit: Int?) throws -> SynthesizedSpeech {
        var speech = try base.synthesize(text, voice: voice, frameLimit: nil)
        if let measured = durations[text], speech.frameCount > 0 {
            let frames = max(1, Int((measured.seconds * Double(sampleRate)).rounded()))
            let scale = Double(frames) / Double(speech.frameCount)
            speech.words = speech.words.map {
                WordBoundary(frame: min(frames - 1, Int(Double($0.frame) * scale)), textRange: $0.textRange)
            }
            speech.samples = (0..<frames).map { speech.samples[min(speech.samples.count - 1, Int(Double($0) / scale))] }
        }
        if let frameLimit, frameLimit < speech.frameCount {
            speech.samples = Array(speech.samples.prefix(frameLimit))
            speech.words = speech.words.filter { $0.frame < frameLimit }
            speech.stoppedEarly = true
        }
        return speech
    }
}
