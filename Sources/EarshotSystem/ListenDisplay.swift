import EarshotCore
import EarshotScript

/// The live timeline `earshot listen` prints while a scenario plays.
///
/// One line per thing as it happens — a user or app event, a focus move, speech starting, a cut with what cut it —
/// and, on a terminal, a status line kept at the bottom: what is speaking now, the focused element, and the next
/// scripted event. Everything runs on the live loop's thread. Text goes to `write` (standard output).
public final class ListenDisplay {
    private let write: (String) -> Void
    private let simulation: Simulation
    private let upcoming: [(at: Instant, text: String)]
    private let showsStatus: Bool
    private var speaking: String?
    private var statusShown = false

    /// `write`: where text goes (standard output); `upcoming`: the script's timed lines, for "next";
    /// `showsStatus`: keep a status line (a terminal).
    public init(
        write: @escaping (String) -> Void, simulation: Simulation, upcoming: [(at: Instant, text: String)],
        showsStatus: Bool
    ) {
        self.write = write
        self.simulation = simulation
        self.upcoming = upcoming.sorted { $0.at < $1.at }
        self.showsStatus = showsStatus
    }

    /// The script's timed lines as the designer wrote them (from the source file), by time.
    public static func scriptedLines(of document: ScenarioDocument, source: String?) -> [(at: Instant, text: String)] {
        let lines = source.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
        return document.timeline.map { event in
            let line = event.location.line - 1
            let text =
                lines.indices.contains(line)
                ? lines[line].trimmingCharacters(in: .whitespaces) : "line \(event.location.line)"
            return (event.time, text)
        }
    }

    /// Shows one signal from the engine.
    public func handle(_ signal: SpeechSignal) {
        switch signal {
        case .started(let record):
            speaking = record.utterance.shortName
            line("🗣 \(record.utterance.shortName)")
        case .cut(let id, let heardFrames):
            speaking = nil
            guard let record = simulation.timeline.record(id) else { return }
            let heard = TimeSpan.frames(heardFrames, rate: simulation.speech.sampleRate)
            var text = "✂ \(record.utterance.shortName) after \(heard)"
            if let cut = record.cutPoint {
                text += cut.heardText.isEmpty ? " (\(Timeline.nothingHeardMark))" : " (heard \"\(cut.heardText)—\")"
            }
            if case .interrupted(_, _, let by) = record.outcome { text += " by \(by.description)" }
            line(text)
        case .finished:
            speaking = nil
            status()
        case .event(let event):
            if let text = Self.describe(event.kind) { line(text) } else { status() }
        }
    }

    /// Clears the status line before other output.
    public func end() {
        if statusShown { write("\r\u{1B}[K") }
        statusShown = false
    }

    /// Prints a note (a mode switch, a hint) between live lines.
    public func note(_ text: String) {
        end()
        write(text + "\n")
        status()
    }

    private func line(_ text: String) {
        end()
        let stamp = simulation.now.description
        write(String(repeating: " ", count: max(0, 8 - stamp.count)) + stamp + "  " + text + "\n")
        status()
    }

    private func status() {
        guard showsStatus else { return }
        let now = simulation.now
        var parts = ["▶ " + (speaking ?? "silence"), "focus: " + (simulation.focusedID ?? "none")]
        if let next = upcoming.first(where: { $0.at > now }) { parts.append("next \(next.at): \(next.text)") }
        write("\r\u{1B}[K" + parts.joined(separator: " · "))
        statusShown = true
    }

    /// The headless transcript's wording for an event (one source for both), leaving out what only clutters a
    /// live view: finish callbacks and Switch Control highlights.
    static func describe(_ kind: TimelineEventKind) -> String? {
        switch kind {
        case .announcementDidFinish, .scanHighlight: return nil
        default: return Timeline.describe(kind)
        }
    }
}
