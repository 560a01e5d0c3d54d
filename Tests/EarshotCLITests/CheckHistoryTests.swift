import EarshotCLI
import EarshotCore
import EarshotSystem
import Foundation
import Testing

/// A script's timeline does not depend on what the process synthesized before: `earshot check` of a folder
/// writes, byte for byte, the JSON Lines of checking each script alone in a fresh process, and of checking
/// it in a process that has already spoken other phrases in other voices.
@Suite struct CheckHistoryTests {
    static let pattern = packageRoot + "/Scripts/announcement-spam"

    static func jsonLines(in folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".jsonl") {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    @Test func aFolderRunAloneRunsAndARunAfterAWarmUpWriteTheSameJSONLines() throws {
        let output = try OutputFolder()
        defer { output.remove() }
        let scripts = try FileManager.default.contentsOfDirectory(atPath: Self.pattern)
            .filter { $0.hasSuffix(".earshot") }.sorted().map { Self.pattern + "/" + $0 }
        #expect(scripts.count == 6)

        // The whole folder in one process.
        _ = try EarshotBinary.run(["check", "--jsonl", output.path + "/folder", Self.pattern])
        let folder = try Self.jsonLines(in: output.path + "/folder")
        #expect(folder.count == scripts.count)

        // Each script alone, each in a fresh process.
        for script in scripts {
            _ = try EarshotBinary.run(["check", "--jsonl", output.path + "/alone", script])
        }
        let alone = try Self.jsonLines(in: output.path + "/alone")

        // In this process, in reverse order, after unrelated phrases in other voices and rates.
        let synthesizer = try EspeakSynthesizer.shared(voicesDirectory: voicesFolder)
        for (index, text) in ["j", "Pay now, button", "Order 1042 is ready.", "11:59", "Results updated"].enumerated() {
            let voice = VoiceProfile(
                name: "warm-up", espeakVoice: "en-us", variant: index.isMultiple(of: 2) ? "f3" : nil,
                rate: 130 + 70 * index)
            _ = try synthesizer.synthesize(text, voice: voice)
        }
        let captured = CapturedContext()
        for script in scripts.reversed() {
            _ = Earshot.run(["check", "--jsonl", output.path + "/warm", script], context: captured.context)
        }
        let warm = try Self.jsonLines(in: output.path + "/warm")

        #expect(Set(alone.keys) == Set(folder.keys))
        #expect(Set(warm.keys) == Set(folder.keys))
        for (name, bytes) in folder.sorted(by: { $0.key < $1.key }) {
            let sameAlone = alone[name] == bytes
            let sameWarm = warm[name] == bytes
            #expect(sameAlone, "\(name) alone: \(Self.firstDifference(alone[name], bytes))")
            #expect(sameWarm, "\(name) after a warm-up: \(Self.firstDifference(warm[name], bytes))")
        }
    }

    /// The first line that differs, for the failure message.
    static func firstDifference(_ other: Data?, _ folder: Data) -> String {
        let mine = String(decoding: other ?? Data(), as: UTF8.self).split(separator: "\n")
        let theirs = String(decoding: folder, as: UTF8.self).split(separator: "\n")
        for (index, line) in theirs.enumerated() where index >= mine.count || mine[index] != line {
            return "line \(index + 1): \(index < mine.count ? String(mine[index]) : "(missing)") vs folder \(line)"
        }
        return "\(mine.count) lines vs \(theirs.count) in the folder run"
    }
}
