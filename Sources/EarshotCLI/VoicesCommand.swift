import EarshotCore
import EarshotSystem

/// `earshot voices`: lists the voice profiles with their measured speaking rate.
///
/// The rate is measured, not copied from the profile: each profile speaks a fixed 20-word reference
/// sentence with the real espeak-ng, and words per minute = 20 / (time from the first to the last
/// non-silent sample). A profile espeak-ng cannot speak (unknown voice or variant) is listed with
/// the reason and the command exits 1.
public struct VoicesCommand: Command {
    /// Creates the command.
    public init() {}

    /// The sentence every profile speaks to measure its rate; plain words, no clause pauses.
    public static let referenceSentence =
        "The quick brown fox jumps over the lazy dog and rests beside the quiet river until the evening light fades"

    /// Samples quieter than this (about -44 dBFS) count as silence when trimming the measurement.
    static let silenceThreshold: Int16 = 200

    public let signature = CommandSignature(
        name: "voices", summary: "List the voice profiles with their measured words per minute.",
        discussion: "Each profile speaks a 20-word reference sentence; MEASURED is words per minute of the\n"
            + "real espeak-ng audio from the first to the last non-silent sample.",
        options: [VoiceOptions.voices],
        examples: ["voices", "voices --voices ~/my-voices"])

    /// It measures every profile's rate by speaking.
    public func speaks(_ arguments: ParsedArguments, context: CommandContext) -> Bool { true }

    public func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let library = try VoiceOptions.library(arguments, context: context)
        let synthesizer = try VoiceOptions.synthesizer(for: library)
        var rows: [[String]] = [["NAME", "ESPEAK", "RATE", "MEASURED", "DESCRIPTION"]]
        var failures: [String] = []
        for profile in library.profiles {
            let espeak = profile.espeakVoice + (profile.variant.map { "+\($0)" } ?? "")
            let measured: String
            do {
                try synthesizer.validate(profile)
                measured = String(format: "%.0f wpm", try Self.measureRate(profile, synthesizer: synthesizer))
            } catch {
                measured = "unusable"
                failures.append("\(error)")
            }
            rows.append([profile.name, espeak, "\(profile.rate)", measured, profile.description])
        }
        context.writeOutput(Self.table(rows))
        context.print("(\(library.profiles.count) profiles in \(library.directory))")
        for failure in failures { context.printError("\(context.program): error: \(failure)") }
        return failures.isEmpty ? ExitCode.success : ExitCode.failure
    }

    /// Words per minute of the reference sentence spoken with `profile`.
    public static func measureRate(_ profile: VoiceProfile, synthesizer: any Synthesizer) throws -> Double {
        let speech = try synthesizer.synthesize(referenceSentence, voice: profile)
        let loud = { (sample: Int16) in sample.magnitude > silenceThreshold.magnitude }
        guard let first = speech.samples.firstIndex(where: loud),
            let last = speech.samples.lastIndex(where: loud), last > first
        else { return 0 }
        let seconds = Double(last - first + 1) / Double(speech.sampleRate)
        let words = referenceSentence.split(separator: " ").count
        return Double(words) * 60 / seconds
    }

    /// Left-aligned columns separated by two spaces; the last column is not padded.
    static func table(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ") + "\n"
        }.joined()
    }
}
