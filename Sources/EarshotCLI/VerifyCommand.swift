import EarshotReport

/// `earshot verify OUT.wav…`: checks that each rendered WAV and its companion files are one render.
///
/// A render moves its files into place together; Ctrl-C and SIGTERM wait for the last rename. Only a process
/// killed outright (SIGKILL, a power cut) can leave a WAV beside another render's transcript, timeline or page.
/// Each companion names the WAV's fingerprint (``RenderStamp``), and this command compares them: status 0 when
/// every set is whole, 1 naming each file that belongs to other audio or is missing.
public struct VerifyCommand: Command {
    /// Creates the command.
    public init() {}

    public let signature = CommandSignature(
        name: "verify", summary: "Check that a rendered WAV, its .vtt, .jsonl and page belong together.",
        arguments: [ArgumentSpec("wav", arity: .oneOrMore, help: "A WAV written by render, compare or samples.")],
        options: [
            .value(
                "html", valueName: "file.html",
                help: "The review page to check too (default: OUT.html beside the WAV, when there is one).")
        ],
        examples: ["verify out/before-search.wav", "verify out/ab.wav --html out/ab-review.html"])

    public func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let wavs = arguments.arguments("wav")
        let page = arguments.value("html")
        if page != nil, wavs.count > 1 { throw UsageError("--html goes with one WAV") }
        var mismatches: [RenderStamp.Mismatch] = []
        for wav in wavs {
            guard wav.lowercased().hasSuffix(".wav") else {
                throw UsageError("\(wav): give the rendered .wav (its .vtt and .jsonl are found beside it)")
            }
            let found = try RenderStamp.check(wav: wav, page: page)
            if found.isEmpty {
                context.print("\(wav): whole (its companion files are from the same render)")
            }
            mismatches += found
        }
        guard mismatches.isEmpty else {
            throw CommandFailure(
                "\(mismatches.count) file(s) do not belong with their WAV:\n"
                    + mismatches.map { "  \($0)" }.joined(separator: "\n"))
        }
        return ExitCode.success
    }
}
