import EarshotCore
import EarshotScript

/// `--reader NAME` (check, render, listen, compare) and `--readers A,B,…` (compare): whose speech rules a run follows.
public enum ReaderOptions {
    /// `--reader <name>`: hear the script under another screen reader's rules.
    public static let reader = OptionSpec.value(
        "reader", valueName: "name",
        help:
            "Screen reader rules: \(ScreenReader.allCases.map(\.rawValue).joined(separator: ", ")) (default: voiceover)."
    )

    /// `--readers <a,b,…>`: compare one script under several readers.
    public static let readers = OptionSpec.value(
        "readers", valueName: "a,b,…",
        help: "Render one script under each reader in turn, a spoken label before each run.")

    /// The reader a name names.
    ///
    /// - Throws: `UsageError` naming the unknown reader and the known ones.
    public static func reader(named name: String) throws -> ScreenReader {
        guard let reader = ScreenReader.named(name) else {
            let known = ScreenReader.allCases.map(\.rawValue)
            let guess = Spelling.nearest(to: name, among: known, limit: 3).map { " (did you mean '\($0)'?)" } ?? ""
            throw UsageError(
                "--reader \(name): no such screen reader\(guess); readers: \(known.joined(separator: ", "))")
        }
        return reader
    }

    /// `profile` with the reader `--reader` asks for (unchanged without the option).
    public static func apply(_ arguments: ParsedArguments, to profile: UserProfile) throws -> UserProfile {
        guard let name = arguments.value(reader.long) else { return profile }
        return profile.reading(with: try Self.reader(named: name))
    }

    /// The readers `--readers` lists, in order, without repeats.
    public static func list(_ arguments: ParsedArguments) throws -> [ScreenReader]? {
        guard let value = arguments.value(readers.long) else { return nil }
        var found: [ScreenReader] = []
        for word in value.split(separator: ",").map({ String($0).trimmingCharacters(in: .whitespaces) })
        where !word.isEmpty {
            let reader = try Self.reader(named: word)
            if !found.contains(reader) { found.append(reader) }
        }
        guard !found.isEmpty else { throw UsageError("--readers needs at least one reader name") }
        return found
    }
}
