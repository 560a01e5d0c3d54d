import EarshotCLI
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `earshot listen` as a user runs it: the built binary, on a missing device, on a private paced PulseAudio sink,
/// and in interactive mode with keys fed through a pseudo-terminal.
@Suite(.serialized) struct ListenCommandTests {
    static let beforeSearch = packageRoot + "/Scripts/announcement-spam/before-search.earshot"

    @Test func withoutASoundCardTheMessageNamesTheDeviceAndALSAsReasonAndSuggestsRender() throws {
        let result = try EarshotBinary.run(["listen", "--device", "earshot-no-such-card", Self.beforeSearch])
        #expect(result.status == 1)
        #expect(result.error.contains("cannot open audio device 'earshot-no-such-card'"))
        #expect(result.error.contains("No such file or directory"))
        #expect(result.error.contains("earshot render"))
        #expect(result.output.isEmpty)
    }

    @Test(arguments: [
        ["listen"],
        ["listen", "--compare", "announcement-spam", "--interactive", "x.earshot"],
    ])
    func aCommandLineWithNothingOrTooMuchToPlayIsAUsageError(words: [String]) throws {
        let result = try EarshotBinary.run(words)
        #expect(result.status == 64)
        #expect(result.error.contains("earshot listen: error:"))
    }

    @Test func siblingsSwapBeforeAndAfter() {
        #expect(ListenCommand.siblingPath(of: "Scripts/a/before-search.earshot") == "Scripts/a/after-search.earshot")
        #expect(ListenCommand.siblingPath(of: "Scripts/a/after.earshot") == "Scripts/a/before.earshot")
    }

    @Test func aScriptPlayedOnThePacedSinkPrintsTheHeadlessTranscriptAndLatenciesWithinTargets() throws {
        let sink = try ListenPacedSink()
        defer { sink.stop() }
        let live = try ListenPacedSink.run(["listen", "--device", "pulse", Self.beforeSearch], server: sink.server)
        let headless = try EarshotBinary.run(["check", "--transcript", Self.beforeSearch])
        #expect(live.status == 0, "\(live.error)")
        // The live lines as they happened, then the very transcript `check --transcript` prints.
        #expect(
            live.output.contains(
                "✂ announcement \"Results updated\" after 140ms (heard \"Results—\") by typingEcho \"a\""))
        // The first 10 ms of "j" are silent: its echo, cut there, was not heard at all.
        let echoCut = live.output.split(separator: "\n").first { $0.contains("✂ typingEcho \"j\" after") }
        #expect(echoCut?.hasSuffix(" (nothing heard) by announcement \"Results updated\"") == true, "\(echoCut ?? "")")
        let transcript = try #require(
            live.output.components(separatedBy: "transcript:\n").last?
                .components(separatedBy: "⏱").first)
        #expect(headless.output.contains(transcript))
        #expect(
            transcript.contains("✂ typingEcho \"j\" cut before anything was heard, by announcement \"Results updated\"")
        )
        // The measured figures against their targets: the typical (median) latency is the engine's and must meet the
        // target; the worst one also carries the machine's scheduling stalls (another process's burst on a busy
        // 2-core machine showed single stalls of 130 and 310 ms among medians of 1–5 ms), so it gets a generous
        // ceiling of a second that still catches Earshot stalling for good, such as synthesis blocking the audio path.
        let figures = live.output.split(separator: "\n").filter { $0.hasPrefix("⏱") }.map(String.init)
        #expect(figures.count == 3)
        #expect(try Self.figure("median", in: figures, containing: "first sample") <= 30, "\(figures)")
        #expect(try Self.figure("median", in: figures, containing: "device silent") <= 15, "\(figures)")
        #expect(try Self.figure("max", in: figures, containing: "first sample") <= 1000, "\(figures)")
        #expect(try Self.figure("max", in: figures, containing: "device silent") <= 1000, "\(figures)")
    }

    /// Keys are fed one at a time, each after the line it waits for: the test's pace never decides the outcome
    /// (the debounce is judged by the times printed on the lines, which are the session's own clock).
    @Test func interactiveKeysSwipeTypeToggleAndQuitAndTheTerminalIsRestored() throws {
        let terminal = try PseudoTerminal()
        let before = terminal.localFlags
        let process = try terminal.spawn(
            EarshotBinary.path ?? "", ["listen", "--device", "null", "--interactive", Self.beforeSearch])
        defer { if process.isRunning { process.terminate() } }
        #expect(terminal.waitFor("interactive:"))
        #expect(terminal.waitFor("◎ focus → query"))  // the script's `at 0s focus query`
        terminal.send("j")
        #expect(terminal.waitFor("⌨ type \"j\""))
        #expect(terminal.waitFor("🗣 announcement \"Results updated\""))
        terminal.send("\t")  // to the after script, focus kept on the field
        #expect(terminal.waitFor("switching to after"))
        #expect(terminal.waitFor("◎ focus → query", after: "switching to after"))
        terminal.send("a")
        #expect(terminal.waitFor("⌨ type \"a\"", after: "switching to after"))
        // The app fills in the results text 10 ms (session time) after the keystroke; swipe only once it has.
        #expect(terminal.waitFor("📱 set results label", after: "⌨ type \"a\""))
        terminal.send("\u{1B}[C")  // → swipe next: to the results text the keystroke filled in
        #expect(terminal.waitFor("◎ focus → results (swipe next)", after: "switching to after"), "\(terminal.output)")
        terminal.send("\u{1B}")  // Esc quits
        #expect(terminal.waitForExit(process))
        #expect(process.terminationStatus == 0)
        let output = terminal.output
        #expect(output.components(separatedBy: "transcript:").count == 3, "one transcript per script")
        // The before script announces at the keystroke; the after one only once typing has paused 600 ms. However
        // slowly the keys arrived, the after's announcement is either not heard before Esc or heard ≥ 600 ms later.
        let parts = output.components(separatedBy: "switching to after")
        let live = { (part: String) in part.components(separatedBy: "transcript:").first ?? "" }
        let beforeLive = live(parts.first ?? "")
        let afterLive = live(parts.last ?? "")
        let beforeDelay = try #require(
            Self.delay(in: beforeLive, from: "⌨ type \"j\"", to: "🗣 announcement \"Results updated\""))
        #expect(beforeDelay < 600, "the before script announced \(beforeDelay) ms after the keystroke")
        if let afterDelay = Self.delay(in: afterLive, from: "⌨ type \"a\"", to: "🗣 announcement \"Results updated\"") {
            #expect(afterDelay >= 600, "the after script announced \(afterDelay) ms after the keystroke")
        }
        #expect(terminal.localFlags == before, "raw mode left behind")
    }

    /// Milliseconds between the first live line containing `from` and the first later one containing `to`, read
    /// from the time each line starts with (`850ms`, `1.234s`); nil when either is missing.
    static func delay(in text: String, from: String, to: String) -> Int? {
        // A status line is redrawn in place (`\r ESC[K`) before each live line: keep what follows the last redraw.
        let lines = text.split(whereSeparator: \.isNewline).map { line in
            String(line.components(separatedBy: "\u{1B}[K").last ?? "").trimmingCharacters(
                in: .whitespaces.union(["\r"]))
        }
        guard let start = lines.firstIndex(where: { $0.contains(from) }),
            let end = lines[start...].firstIndex(where: { $0.contains(to) }),
            let first = milliseconds(lines[start]), let last = milliseconds(lines[end])
        else { return nil }
        return last - first
    }

    /// The time a live line starts with, in milliseconds.
    static func milliseconds(_ line: String) -> Int? {
        guard let stamp = line.split(separator: " ").first else { return nil }
        if stamp.hasSuffix("ms") { return Int(stamp.dropLast(2)) }
        guard stamp.hasSuffix("s"), let seconds = Double(stamp.dropLast()) else { return nil }
        return Int((seconds * 1000).rounded())
    }

    @Test(arguments: [("850ms", 850), ("1.234s", 1234), ("12.000s", 12000), ("transcript:", nil)] as [(String, Int?)])
    func liveLineTimesAreReadInMilliseconds(stamp: String, expected: Int?) {
        #expect(Self.milliseconds("   " + stamp + "  ⌨ type \"a\"") == expected)
    }

    /// One statistic (`median`, `max`) in milliseconds from the figure line containing `label`.
    static func figure(_ statistic: String, in figures: [String], containing label: String) throws -> Double {
        let line = try #require(figures.first { $0.contains(label) })
        let text = try #require(
            line.components(separatedBy: statistic + " ").last?.components(separatedBy: " ms").first)
        return try #require(Double(text))
    }

    @Test func figuresAreReadByStatistic() throws {
        let line = "⏱ event → first sample at the device: median 4.6 ms, min 1.2 ms, max 130.0 ms over 13 starts"
        #expect(try Self.figure("median", in: [line], containing: "first sample") == 4.6)
        #expect(try Self.figure("max", in: [line], containing: "first sample") == 130)
    }
}
