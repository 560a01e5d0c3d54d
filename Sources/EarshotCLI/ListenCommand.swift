import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `earshot listen SCRIPT…`: plays scenarios in real time through ALSA, with barge-in that cuts speech at once.
///
/// The one engine runs from a real-time clock (`LiveSession`); speech goes to a `LivePlayer` that writes without
/// blocking, waits in `poll()` with a wake-up, and drops the device's buffer the moment the engine cuts. While it
/// plays, the terminal shows each event, speech start and cut, with a status line (speaking now, focus, next
/// scripted event); at the end the same transcript as `earshot check --transcript`, and the measured latencies.
///
/// - `--compare PATTERN` plays each before script, then its after script, each after a spoken "Before."/"After.".
/// - `--interactive SCRIPT`: the designer is the user (see `ListenCommand+Interactive.swift`).
/// - Ctrl-C silences the device at once, prints the transcript so far, and exits 130.
/// - Without a sound card: a message naming the device and ALSA's reason, suggesting `render`; status 1. A device
///   that fails mid-session stops the run with a message, the transcript so far, and status 1.
public struct ListenCommand: Command {
    /// The audio kept for repeated phrases during a live session: about 95 s of 22050 Hz speech.
    static let liveAudioCacheLimit = 4 << 20

    /// Creates the command.
    public init() {}

    public let signature = CommandSignature(
        name: "listen", summary: "Play scenarios in real time through ALSA, with barge-in; or be the user.",
        discussion: """
            SCRIPT is a script, a folder or a pattern name. Speech is cut the instant the engine cuts it, exactly \
            where a headless run cuts it. With --interactive, ←/→ swipe, Enter activates, printable keys type \
            into the focused field, Tab switches between the before and after script, Esc or Ctrl-C quits.
            """,
        arguments: [ArgumentSpec("script", arity: .zeroOrMore, help: "Scripts, folders or pattern names to play.")],
        options: [
            .value("device", valueName: "name", help: "ALSA playback device.", defaultValue: "default"),
            .value("compare", valueName: "pattern", help: "Play the pattern's before then after scripts."),
            .value("interactive", valueName: "script", help: "Take the user's part from the keyboard."),
            ScenarioInputs.profileOption,
            ReaderOptions.reader,
            VoiceOptions.voice,
            VoiceOptions.voices,
            CacheOptions.noCache,
            .flag("quiet", short: "q", help: "No live lines; only the transcripts and measurements."),
            CheckWatch.option,
        ],
        examples: [
            "listen Scripts/announcement-spam/before-search.earshot",
            "listen --compare announcement-spam",
            "listen --interactive Scripts/announcement-spam/after-search.earshot",
            "listen --device pulse updates-frequently",
            "listen --watch Scripts/announcement-spam/after-search.earshot",
        ])

    /// `listen` silences the device, restores the terminal and prints the transcript on Ctrl-C itself.
    public var handlesInterrupts: Bool { true }

    /// It speaks unless the phrase cache answers (then it never opens espeak-ng).
    public func speaks(_ arguments: ParsedArguments, context: CommandContext) -> Bool {
        CacheOptions.needsEspeak(arguments, environment: context.environment)
    }

    public func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        guard arguments.flag(CheckWatch.option.long) else { return try playOnce(arguments, context: context) }
        guard arguments.value("interactive") == nil else { throw UsageError("--watch replays scripts or --compare") }
        let words = arguments.arguments("script") + (arguments.value("compare").map { [$0] } ?? [])
        return try CheckWatch.loop(arguments, words: words, context: context) {
            try playOnce(arguments, context: context)
        }
    }

    func playOnce(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let scripts = arguments.arguments("script")
        let compare = arguments.value("compare")
        let interactive = arguments.value("interactive")
        let modes = [!scripts.isEmpty, compare != nil, interactive != nil].filter { $0 }.count
        guard modes == 1 else {
            throw UsageError(
                modes == 0
                    ? "nothing to play: give scripts, --compare PATTERN or --interactive SCRIPT"
                    : "give scripts, --compare or --interactive, not several")
        }
        let plays: [Play]
        if let interactive {
            plays = try ScenarioInputs.parse(try ScenarioInputs.scriptPaths([interactive], context: context))
                .map { Play(document: $0, separator: nil) }
        } else if let compare {
            plays = try Self.comparison(compare, context: context)
        } else {
            plays = try ScenarioInputs.parse(try ScenarioInputs.scriptPaths(scripts, context: context))
                .map { Play(document: $0, separator: nil) }
        }
        // Live audio is played once, right after it is synthesized: a small cache keeps repeated phrases
        // ("Results updated") and a session's memory flat however long it runs (a 64 MB cache grew ~37 KB/s
        // over a 10-minute stopwatch until it filled).
        let speech = try ScenarioInputs.speech(
            arguments, context: context, audioCacheLimit: Self.liveAudioCacheLimit, spillingAudio: false)
        let deviceName = arguments.value("device") ?? "default"
        let clock = RealTimeClock()
        let player: LivePlayer
        do {
            player = try LivePlayer(device: deviceName, sampleRate: speech.engine.sampleRate, clock: clock)
        } catch {
            throw CommandFailure(Self.noDeviceMessage(deviceName, error: error, scripts: plays.map(\.document.path)))
        }
        defer { player.close() }
        guard player.sampleRate == speech.engine.sampleRate else {
            throw CommandFailure(
                "audio device '\(deviceName)' plays at \(player.sampleRate) Hz, not espeak-ng's "
                    + "\(speech.engine.sampleRate) Hz; choose a device through ALSA's plug layer (e.g. plughw:0)")
        }
        let control = ListenControl()
        let signals = control.catchSignals()
        defer { signals.forEach { $0.cancel() } }
        let setup = ListenSetup(
            arguments: arguments, context: context, speech: speech, player: player, clock: clock, control: control,
            deviceName: deviceName)
        if let first = plays.first, interactive != nil {
            return try Self.runInteractive(first.document, setup: setup)
        }
        for play in plays {
            if let separator = play.separator {
                try setup.speakSeparator(separator)
                if control.isQuitting { break }
            }
            let outcome = try setup.play(play.document)
            switch outcome {
            case .scriptEnded: continue
            case .stopped: return 130
            case .deviceLost: return ExitCode.failure
            }
        }
        return ExitCode.success
    }

    /// One scenario to play, with what to say before it.
    struct Play {
        var document: ScenarioDocument
        var separator: String?
    }

    /// Each before script of a pattern, then its after script.
    static func comparison(_ pattern: String, context: CommandContext) throws -> [Play] {
        let documents = try ScenarioInputs.parse(try ScenarioInputs.scriptPaths([pattern], context: context))
        var plays: [Play] = []
        for before in documents where before.header.variant == .before {
            plays.append(Play(document: before, separator: "Before."))
            let sibling = siblingPath(of: before.path)
            if let after = documents.first(where: { $0.path == sibling }) {
                plays.append(Play(document: after, separator: "After."))
            }
        }
        guard !plays.isEmpty else {
            throw CommandFailure("\(pattern): no before scripts to compare", exitCode: ExitCode.scriptFailure)
        }
        return plays
    }

    /// `…/before-search.earshot` ↔ `…/after-search.earshot`: the other variant's path (whether or not it exists).
    public static func siblingPath(of path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        let swapped: String
        if name.hasPrefix("before") {
            swapped = "after" + name.dropFirst("before".count)
        } else if name.hasPrefix("after") {
            swapped = "before" + name.dropFirst("after".count)
        } else {
            return path
        }
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? swapped : folder + "/" + swapped
    }

    /// `cannot open audio device 'X': …` with ALSA's reason and the `render` suggestion.
    static func noDeviceMessage(_ device: String, error: ALSAError, scripts: [String]) -> String {
        var message = "cannot open audio device '\(device)': \(error.message)"
        if !error.detail.isEmpty { message += " (ALSA: \(error.detail))" }
        let example = scripts.first ?? "SCRIPT"
        return message + "\n"
            + "No sound card here? Render the scenario to a WAV file instead: earshot render \(example) -o "
            + "\(URL(fileURLWithPath: example).deletingPathExtension().lastPathComponent).wav --html review.html\n"
            + "(or choose another device with --device; `aplay -L` lists them)"
    }
}

/// Stop requests from signals and keys, and the session they apply to; shared between threads.
final class ListenControl: @unchecked Sendable {
    private let lock = NSLock()
    private var session: LiveSession?
    private var quitting = false
    private var toggling = false

    /// True once the user asked to quit (Ctrl-C, Esc, SIGINT, SIGTERM).
    var isQuitting: Bool { lock.withLock { quitting } }

    /// The session keys and signals now act on.
    func attach(_ session: LiveSession?) {
        let stopNow = lock.withLock { () -> Bool in
            self.session = session
            return quitting
        }
        if stopNow { session?.stop() }
    }

    /// The attached session, if any.
    var current: LiveSession? { lock.withLock { session } }

    /// Quits: the session silences the device at once and ends.
    func quit() {
        let session = lock.withLock { () -> LiveSession? in
            quitting = true
            return self.session
        }
        session?.stop()
    }

    /// Ends the session to switch scripts (interactive Tab).
    func toggle() {
        let session = lock.withLock { () -> LiveSession? in
            toggling = true
            return self.session
        }
        session?.stop()
    }

    /// True once after ``toggle()``.
    func takeToggle() -> Bool {
        lock.withLock {
            defer { toggling = false }
            return toggling
        }
    }

    /// SIGINT and SIGTERM quit (speech silenced at once, transcript printed) instead of killing the process.
    func catchSignals() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in quit() }
            source.setCancelHandler { signal(number, SIG_DFL) }
            source.resume()
            return source
        }
    }
}
