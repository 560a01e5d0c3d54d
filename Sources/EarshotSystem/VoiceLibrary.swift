import EarshotCore
import EarshotScript
import Foundation

/// The voice profiles in a Voices folder (`*.voice`), by name.
///
/// ```swift
/// let library = try VoiceLibrary(directory: try VoiceLibrary.locate(explicit: options.voices))
/// let voice = try library.profile(named: "expert")
/// ```
public struct VoiceLibrary: Sendable {
    /// The folder the profiles came from.
    public let directory: String
    /// Every profile, sorted by name.
    public let profiles: [VoiceProfile]
    /// The folder's `pronunciations` file, or none.
    public let pronunciations: PronunciationDictionary

    /// The environment variable naming a Voices folder.
    public static let environmentKey = "EARSHOT_VOICES"

    /// Loads every `*.voice` file in `directory`; the first malformed file throws its error.
    public init(directory: String) throws(VoiceLibraryError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .unreadableDirectory(directory)
        }
        var profiles: [VoiceProfile] = []
        for file in names.sorted() where file.hasSuffix(".voice") {
            do {
                profiles.append(try VoiceFile.load(path: directory + "/" + file))
            } catch {
                throw .malformedFile(error)
            }
        }
        self.directory = directory
        self.profiles = profiles
        let pronunciationPath = directory + "/" + PronunciationFile.fileName
        if FileManager.default.fileExists(atPath: pronunciationPath) {
            do {
                pronunciations = try PronunciationFile.load(path: pronunciationPath)
            } catch {
                throw .malformedFile(error)
            }
        } else {
            pronunciations = .empty
        }
    }

    /// Profile names, sorted.
    public var names: [String] { profiles.map(\.name) }

    /// Checks a profile with espeak-ng; a failure is reported at the line of its `.voice` file that causes it
    /// (`Voices/expert.voice:2:8: error: espeak-ng has no voice 'en-zz'`, with the line and a caret).
    ///
    /// - Throws: `VoiceFileError` for a profile from this folder, else the synthesizer's `EspeakError`.
    public func validate(_ profile: VoiceProfile, with synthesizer: EspeakSynthesizer) throws {
        do {
            try synthesizer.validate(profile)
        } catch {
            let key: String
            switch error {
            case .unknownVoice: key = "espeak"
            case .unknownVariant: key = "variant"
            case .invalidName(_, let kind, _, _): key = kind == .voice ? "espeak" : "variant"
            case .valueOutOfRange(let name, _, _, _): key = name.lowercased().replacingOccurrences(of: " ", with: "")
            default: throw error
            }
            let path = directory + "/" + profile.name + ".voice"
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw error }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let words = line.split(separator: " ", omittingEmptySubsequences: true)
                guard words.first?.lowercased() == key else { continue }
                let column = words.count > 1 ? line.distance(from: line.startIndex, to: words[1].startIndex) + 1 : 1
                throw VoiceFileError(
                    path: path, line: index + 1, column: column, message: error.description, sourceLine: String(line))
            }
            throw error
        }
    }

    /// The profile called `name`; an unknown name throws with the nearest names and all known ones.
    public func profile(named name: String) throws(VoiceLibraryError) -> VoiceProfile {
        if let profile = profiles.first(where: { $0.name == name }) { return profile }
        let near = names.filter { candidate in
            Spelling.distance(candidate.lowercased(), name.lowercased()) <= max(2, name.count / 3)
                || candidate.lowercased().hasPrefix(name.lowercased())
        }
        throw .unknownProfile(name: name, suggestions: near, known: names, directory: directory)
    }

    /// The Voices folder to use: `explicit` when given, else `$EARSHOT_VOICES`, else the first folder
    /// containing `Voices/default.voice` walking up from the current directory, then an install's
    /// `../share/earshot/Voices` next to the executable's folder (`make install`), then walking up from the
    /// executable's directory. `nil` when none is found.
    public static func locateDirectory(
        explicit: String?, environment: [String: String] = ProcessEnvironment.current,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        executablePath: String? = ExecutablePath.current
    ) -> String? {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment[environmentKey], !fromEnvironment.isEmpty { return fromEnvironment }
        if let found = walkUp(from: currentDirectory, in: currentDirectory) { return found }
        guard let executablePath else { return nil }
        // The executable's folder with links resolved; only looked up when the walk from the current directory
        // found nothing (a link's resolution was 0.2 ms of every command's start).
        let folder = ExecutablePath.resolvedFolder(of: executablePath) ?? PathText.folder(of: executablePath)
        // An install: PREFIX/bin/earshot with PREFIX/share/earshot/Voices. Its share folder is the start, so
        // it comes before the walk up from the executable.
        return walkUp(from: PathText.folder(of: folder) + "/share/earshot", in: currentDirectory)
            ?? walkUp(from: folder, in: currentDirectory)
    }

    /// The first `Voices` folder holding a `default.voice` in `start` (relative to `currentDirectory`, `.` and
    /// `..` taken as written, links kept) or in a folder above it.
    static func walkUp(from start: String, in currentDirectory: String) -> String? {
        var folder = PathText.standardized(start, in: currentDirectory)
        while true {
            let candidate = (folder == "/" ? "" : folder) + "/Voices"
            if FileManager.default.fileExists(atPath: candidate + "/default.voice") { return candidate }
            guard folder != "/" else { return nil }
            folder = PathText.folder(of: folder)
        }
    }

    /// Like ``locateDirectory(explicit:environment:currentDirectory:executablePath:)`` but throws a
    /// message saying where it looked and how to point Earshot at the folder.
    public static func locate(explicit: String? = nil) throws(VoiceLibraryError) -> String {
        guard let directory = locateDirectory(explicit: explicit) else { throw .notFound }
        return directory
    }
}

/// Why a voice library or profile could not be loaded.
public enum VoiceLibraryError: Error, Equatable, CustomStringConvertible {
    /// No Voices folder was found.
    case notFound
    /// The folder could not be listed.
    case unreadableDirectory(String)
    /// A `.voice` file has an error.
    case malformedFile(VoiceFileError)
    /// No profile has this name.
    case unknownProfile(name: String, suggestions: [String], known: [String], directory: String)

    public var description: String {
        switch self {
        case .notFound:
            return "cannot find the Voices folder: pass --voices PATH, set \(VoiceLibrary.environmentKey), "
                + "or run from inside the Earshot package (a folder containing Voices/default.voice)"
        case .unreadableDirectory(let path):
            return "cannot read the Voices folder \(path)"
        case .malformedFile(let error):
            return error.description
        case .unknownProfile(let name, let suggestions, let known, let directory):
            var text = "no voice profile named '\(name)' in \(directory)"
            if let first = suggestions.first { text += "; did you mean '\(first)'?" }
            guard !known.isEmpty else { return text + " (the folder has no .voice files)" }
            return text + "; known voices: \(known.joined(separator: ", "))"
        }
    }
}
