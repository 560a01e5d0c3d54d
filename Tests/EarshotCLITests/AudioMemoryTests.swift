import Foundation
import Testing

/// `EARSHOT_AUDIO_MEMORY`: the audio a render keeps in memory; beyond it, audio is spilled to a nameless file and
/// the render is the same.
@Suite("render audio memory")
struct AudioMemoryTests {
    static func render(memory: String?, to wav: String) throws -> RunResult {
        let script = packageRoot + "/Scripts/announcement-spam/before-order-status.earshot"
        return try EarshotBinary.runProgram(
            try #require(EarshotBinary.path), ["render", "--no-cache", script, "-o", wav],
            environment: ["EARSHOT_VOICES": voicesFolder, "EARSHOT_AUDIO_MEMORY": memory])
    }

    @Test func aRenderWithLittleMemoryIsTheSameRender() throws {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        let folder = NSTemporaryDirectory() + "earshot-audio-memory-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let roomy = try Self.render(memory: nil, to: folder + "/roomy.wav")
        let tight = try Self.render(memory: "16K", to: folder + "/tight.wav")
        #expect(roomy.status == 0 && tight.status == 0, "\(roomy.error) \(tight.error)")
        let wav = try Data(contentsOf: URL(fileURLWithPath: folder + "/roomy.wav"))
        #expect(wav.count > 1_000_000)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/tight.wav")) == wav)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".wav") }.sorted()
        #expect(names == ["roomy.wav", "tight.wav"])
    }

    @Test(arguments: ["lots", "12X", "-5"])
    func aMemorySettingThatIsNotASizeIsAUsageError(value: String) throws {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        let result = try Self.render(memory: value, to: NSTemporaryDirectory() + "never-\(UUID().uuidString).wav")
        #expect(result.status == 64)
        #expect(result.error.contains("EARSHOT_AUDIO_MEMORY=\(value) is not a size"), "\(result.error)")
    }
}
