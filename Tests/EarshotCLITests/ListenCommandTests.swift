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
        // The measured figures, each against its target.
        let figures = live.output.split(separator: "\n").filter { $0.hasPrefix("⏱") }.map(String.init)
        #expect(figures.count == 3)
        #expect(try Self.maximum(in: figures, containing: "first sample") <= 30)
        #expect(try Self.maximum(in: figures, containing: "device silent") <= 15)
    }

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
        #expect(terminal.waitFor("◎ focus → query"))
        terminal.send("a")
        #expect(terminal.waitFor("⌨ type \"a\""))
        terminal.send("\u{1B}[C")  // → swipe next: to the results text the keystroke filled in
        #expect(terminal.waitFor("◎ focus → results (swipe next)"))
        terminal.send("\u{1B}")  // Esc quits
        #expect(terminal.waitForExit(process, seconds: 5))
        #expect(process.terminationStatus == 0)
        let output = terminal.output
        #expect(output.components(separatedBy: "transcript:").count == 3, "one transcript per script")
        // The before script announced on the keystroke; the after one (debounced 600 ms) not within it.
        let after = output.components(separatedBy: "switching to after").last ?? ""
        #expect(
            !(after.components(separatedBy: "transcript:").first ?? "").contains("🗣 announcement \"Results updated\""))
        #expect(terminal.localFlags == before, "raw mode left behind")
    }

    static func maximum(in figures: [String], containing label: String) throws -> Double {
        let line = try #require(figures.first { $0.contains(label) })
        let text = try #require(line.components(separatedBy: "max ").last?.components(separatedBy: " ms").first)
        return try #require(Double(text))
    }
}
