import EarshotAudio
import EarshotCore
import Foundation

/// The WAV fingerprint a render writes into each of its companion files, and the check that they agree.
///
/// A render's files are moved into place one after another; Ctrl-C and SIGTERM wait for the last rename, but
/// SIGKILL or a power cut can land between two. A reader then finds, say, a new WAV beside the previous
/// render's transcript. Every companion therefore names the WAV it was made with (``AudioFingerprint``):
///
/// - `.vtt`: a `NOTE earshot-audio fnv1a64x4:…:FRAMES` block right after the `WEBVTT` line;
/// - `.jsonl`: a first line `{"fingerprint":"fnv1a64x4:…:FRAMES","frames":…,"sample_rate":…,"type":"audio"}`;
/// - the review page: `<meta name="earshot-audio" content="fnv1a64x4:…:FRAMES"/>`.
///
/// `earshot verify OUT.wav` and `earshot samples --check` compare these with the WAV's own fingerprint, computed
/// the way each file names (renders made before `fnv1a64x4` wrote `fnv1a64:…`).
public enum RenderStamp {
    /// The WebVTT note keyword and the HTML meta name.
    public static let name = "earshot-audio"

    /// The transcript with the fingerprint note after its `WEBVTT` line.
    public static func stamp(transcript document: String, with fingerprint: AudioFingerprint) -> String {
        let header = "WEBVTT\n"
        let rest = document.hasPrefix(header) ? String(document.dropFirst(header.count)) : "\n" + document
        return header + "\nNOTE \(name) \(fingerprint)\n" + rest
    }

    /// The timeline's first line, naming the audio it belongs to.
    public static func timelineLine(for fingerprint: AudioFingerprint, sampleRate: Int) -> String {
        let line: JSONValue = .object([
            ("fingerprint", .string(fingerprint.description)), ("frames", .int(fingerprint.frameCount)),
            ("sample_rate", .int(sampleRate)), ("type", "audio"),
        ])
        return line.compact() + "\n"
    }

    /// The review page's `<meta>` element.
    public static func pageMeta(for fingerprint: AudioFingerprint) -> Markup {
        .empty("meta", [("name", name), ("content", fingerprint.description)])
    }

    /// The fingerprint a transcript names, if any.
    static func fingerprint(inTranscript text: String) -> AudioFingerprint? {
        let lines = text.split(separator: "\n", maxSplits: 4, omittingEmptySubsequences: false)
        let prefix = "NOTE \(name) "
        guard let line = lines.first(where: { $0.hasPrefix(prefix) }) else { return nil }
        return AudioFingerprint(line.dropFirst(prefix.count))
    }

    /// The fingerprint a timeline's first line names, if any.
    static func fingerprint(inTimeline text: String) -> AudioFingerprint? {
        let first = text.prefix { $0 != "\n" }
        guard let object = try? JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any],
            object["type"] as? String == "audio", let value = object["fingerprint"] as? String
        else { return nil }
        return AudioFingerprint(value)
    }

    /// The fingerprint a review page's `<meta>` names, if any.
    static func fingerprint(inPage text: String) -> AudioFingerprint? {
        let prefix = "<meta name=\"\(name)\" content=\""
        guard let start = text.range(of: prefix) else { return nil }
        let value = text[start.upperBound...].prefix { $0 != "\"" }
        return AudioFingerprint(value)
    }

    /// One file of a set that does not belong with its WAV.
    public struct Mismatch: Hashable, Sendable, CustomStringConvertible {
        /// The file.
        public var path: String
        /// What is wrong with it, as a sentence end: `is missing`, `was written for other audio (…)`.
        public var problem: String

        /// Creates a mismatch.
        public init(path: String, problem: String) {
            self.path = path
            self.problem = problem
        }

        public var description: String { "\(path) \(problem)" }
    }

    /// Compares a WAV with its `.vtt`, `.jsonl` and (when given or present beside it) review page.
    ///
    /// - Returns: the files that do not belong with the WAV; empty when the set is whole.
    /// - Throws: `AudioFileError` when the WAV itself cannot be read.
    public static func check(wav: String, page: String? = nil) throws -> [Mismatch] {
        let audio = try WAVFile.read(path: wav)
        // Each companion is checked by the method it names (renders before `fnv1a64x4` wrote `fnv1a64`).
        var expected: [AudioFingerprint.Method: AudioFingerprint] = [:]
        func fingerprint(by method: AudioFingerprint.Method) -> AudioFingerprint {
            if let known = expected[method] { return known }
            let computed = AudioFingerprint(samples: audio.samples, method: method)
            expected[method] = computed
            return computed
        }
        let pagePath = page ?? RenderOutputs.companion(of: wav, extension: "html")
        let parts: [(path: String, required: Bool, read: (String) -> AudioFingerprint?)] = [
            (RenderOutputs.companion(of: wav, extension: "vtt"), true, fingerprint(inTranscript:)),
            (RenderOutputs.companion(of: wav, extension: "jsonl"), true, fingerprint(inTimeline:)),
            (pagePath, page != nil, fingerprint(inPage:)),
        ]
        var mismatches: [Mismatch] = []
        for part in parts {
            guard let data = FileManager.default.contents(atPath: part.path) else {
                if part.required { mismatches.append(Mismatch(path: part.path, problem: "is missing")) }
                continue
            }
            guard let found = part.read(String(decoding: data, as: UTF8.self)) else {
                mismatches.append(Mismatch(path: part.path, problem: "names no audio (not written by earshot render)"))
                continue
            }
            let actual = fingerprint(by: found.method)
            if found != actual {
                mismatches.append(
                    Mismatch(
                        path: part.path,
                        problem: "was written for other audio (\(found), the WAV is \(actual)): "
                            + "the set is mixed; render it again"))
            }
        }
        return mismatches
    }
}
