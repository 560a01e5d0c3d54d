import Foundation
import Testing

/// `render --html`: the command wires the review page into the render's set.
@Suite struct RenderHTMLTests {
    @Test func renderWithHTMLWritesThePageBesideTheWAV() throws {
        let folder = NSTemporaryDirectory() + "earshot-render-html-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = packageRoot + "/Scripts/announcement-spam/before-search.earshot"
        let result = try EarshotBinary.run([
            "render", script, "-o", folder + "/out.wav", "--html", folder + "/out.html",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("out.html (review page)"))
        let page = try String(contentsOfFile: folder + "/out.html", encoding: .utf8)
        #expect(page.contains("src=\"data:audio/wav;base64,"))
        #expect(page.contains("<svg class=\"timeline\""))
        let failing = page.components(separatedBy: "<li class=\"check fail\">").dropFirst()
        #expect(failing.contains { $0.prefix(400).contains("nothing announced while typing") })
    }
}
