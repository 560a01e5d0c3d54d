import EarshotCore
import EarshotSystem
import Foundation

/// `earshot conformance speech-dispatcher`: plays the SSIP conformance scenarios to a private, real
/// speech-dispatcher and prints, per scenario, what Earshot's speech-dispatcher profile predicted for each message
/// against what the server did (spoken, cut, discarded, the order they began, when).
public struct ConformanceCommand: Command {
    /// Creates the command.
    public init() {}

    public let signature = CommandSignature(
        name: "conformance", summary: "Compare the speech-dispatcher profile with a real speech-dispatcher.",
        discussion: """
            Starts its own speech-dispatcher (espeak-ng module) on a private paced PulseAudio sink, speaks each \
            text alone to measure its length and the server's jitter, then plays every scenario over SSIP and \
            runs the same scenario through Earshot with the measured lengths. Needs the Debian packages \
            \(SpeechDispatcherServer.packages). Takes about two minutes.
            """,
        arguments: [ArgumentSpec("server", arity: .required, help: "The server to compare with: speech-dispatcher.")],
        options: [.value("scenario", valueName: "text", help: "Only scenarios whose name contains this text.")],
        examples: ["conformance speech-dispatcher", "conformance speech-dispatcher --scenario progress"])

    /// Ctrl-C and SIGTERM stop the private server and its PulseAudio (by PID) before the process exits.
    public var handlesInterrupts: Bool { true }

    public func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let name = arguments.arguments("server").first ?? ""
        guard name == ScreenReader.speechDispatcher.rawValue else {
            throw UsageError("conformance compares with speech-dispatcher only (got '\(name)')")
        }
        var scenarios = SSIPScenario.suite
        if let filter = arguments.value("scenario") {
            scenarios = scenarios.filter { $0.name.contains(filter) }
            guard !scenarios.isEmpty else { throw UsageError("no scenario name contains '\(filter)'") }
        }
        let server: SpeechDispatcherServer
        do {
            server = try SpeechDispatcherServer()
        } catch {
            throw CommandFailure("\(error)")
        }
        defer { server.stop() }
        let signals = context.catchesInterrupts ? Self.stopOnInterrupt(server) : []
        defer { for source in signals { source.cancel() } }
        let report = try SpeechDispatcherConformance.run(scenarios, server: server) { context.print("  \($0)") }
        context.writeOutput(report.table)
        context.print(report.summary)
        return report.results.allSatisfy(\.agrees) ? ExitCode.success : ExitCode.failure
    }

    /// Signal handlers that stop `server` and exit with 130 (SIGINT) or 143 (SIGTERM).
    static func stopOnInterrupt(_ server: SpeechDispatcherServer) -> [any DispatchSourceSignal] {
        [(SIGINT, Int32(130)), (SIGTERM, Int32(143))].map { number, status in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                server.stop()
                _exit(status)
            }
            source.resume()
            return source
        }
    }
}
