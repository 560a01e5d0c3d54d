import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What every scenario `earshot listen` plays shares: options, speech, the player and the stop control.
struct ListenSetup {
    var arguments: ParsedArguments
    var context: CommandContext
    var speech: ScenarioInputs.Speech
    var player: LivePlayer
    var clock: RealTimeClock
    var control: ListenControl
    var deviceName: String

    var quiet: Bool { arguments.flag("quiet") }
    var showsStatus: Bool { !quiet && isatty(STDOUT_FILENO) == 1 }

    /// Speaks a separator ("Before.") and waits until it has played.
    func speakSeparator(_ text: String) throws {
        let samples = try speech.speech.audio(for: text, voice: .standard)
        context.print("\n🔈 \(text)")
        player.play(-1, samples: samples, requestedAt: clock.now)
        player.waitUntilPlayed(timeout: .seconds(10))
        _ = player.takeMeasurements()
    }

    /// A prepared simulation of `document` with the profile and voice the options ask for.
    func simulation(for document: ScenarioDocument) throws -> Simulation {
        let profile = try ScenarioInputs.profile(for: document, arguments: arguments)
        let voice = try speech.voice(for: document, override: arguments.value(VoiceOptions.voice.long))
        return ScenarioRunner.prepare(
            document, profile: try ReaderOptions.apply(arguments, to: profile), voice: voice, speech: speech.speech)
    }

    /// Plays one scripted scenario in real time, printing the live lines, then the transcript and measurements.
    func play(_ document: ScenarioDocument) throws -> LiveSession.Ending {
        let simulation = try self.simulation(for: document)
        return try run(simulation, document: document, scriptEnd: document.endTime)
    }

    /// Runs a prepared simulation live until `scriptEnd` (nil: until stopped) and reports it.
    func run(_ simulation: Simulation, document: ScenarioDocument, scriptEnd: Instant?) throws -> LiveSession.Ending {
        let header = document.header
        context.print(
            "\n▶ \(document.path) — \(header.title) (\(header.variant.rawValue), \(simulation.profile.name), "
                + "voice \(simulation.voice.name)) on '\(deviceName)'")
        let session = LiveSession(simulation: simulation, player: player, clock: clock)
        let source = try? String(contentsOfFile: document.path, encoding: .utf8)
        let display = ListenDisplay(
            write: context.writeOutput, simulation: simulation,
            upcoming: ListenDisplay.scriptedLines(of: document, source: source),
            showsStatus: showsStatus)
        if !quiet { session.onSignal = { display.handle($0) } }
        control.attach(session)
        defer { control.attach(nil) }
        let ending = try session.run(scriptEnd: scriptEnd)
        display.end()
        report(simulation, ending: ending)
        return ending
    }

    /// The transcript (as headless prints it), then what was measured, then why it stopped if it did.
    func report(_ simulation: Simulation, ending: LiveSession.Ending) {
        context.print("\ntranscript:")
        context.writeOutput(simulation.timeline.transcript())
        let measured = player.takeMeasurements()
        context.print(measured.summary.split(separator: "\n").map { "⏱ " + $0 }.joined(separator: "\n"))
        switch ending {
        case .scriptEnded:
            break
        case .stopped:
            context.print("■ stopped at \(simulation.now): the device was silenced at once")
        case .deviceLost(let error):
            context.printError(
                "earshot: error: audio device '\(deviceName)' stopped working at \(simulation.now): \(error.message)"
                    + (error.detail.isEmpty ? "" : " (ALSA: \(error.detail))")
                    + "; stopped, the transcript above is what was heard until then")
        }
    }
}
