import EarshotAudio
import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation
import Testing

@testable import EarshotReport

/// The mix plan on its own, without the command line: a render is staged, invisible until published, and
/// then appears as one set whose files name the same audio.
@Suite struct RenderOutputsTests {
    @Test func aStagedRenderAppearsOnlyWhenPublishedAndItsFilesAgree() throws {
        let folder = try ReviewFixtures.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = try ReviewFixtures.report("updates-frequently/after.earshot")
        let synthesizer = try EspeakSynthesizer.shared(
            voicesDirectory: ReviewFixtures.root.appendingPathComponent("Voices").path)
        let items = RenderOutputs.comparison([(name: "", before: report.run, after: report.run)])
        var rendered = try RenderOutputs.stage(
            items, to: folder + "/ab.wav", speech: SpeechLibrary(synthesizer: synthesizer),
            voices: RenderOutputs.Voices(label: .standard, narrator: { .standard }), soundsDirectory: nil)
        func visible() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        }
        #expect(try visible().isEmpty)
        #expect(rendered.segments.map(\.name) == ["before", "after"])
        #expect(rendered.labels.map(\.text) == ["Before.", "After."])
        let page = try ReviewPage.stage(rendered, at: folder + "/ab.html", linkingAudio: true)
        try rendered.publish(with: [page])
        #expect(try visible() == ["ab.html", "ab.jsonl", "ab.vtt", "ab.wav"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 4)
        #expect(try RenderStamp.check(wav: folder + "/ab.wav", page: folder + "/ab.html").isEmpty)
        let jsonl = try String(contentsOfFile: folder + "/ab.jsonl", encoding: .utf8)
        #expect(jsonl.components(separatedBy: "\"type\":\"segment\"").count == 3)
    }
}
