import Foundation
import Testing

@testable import EarshotReport

@Suite("Review page glyphs")
struct ReviewPageGlyphTests {
    /// Every character beyond ASCII the page may draw, with the installed font that has it (checked with
    /// `fc-list ":charset=HEX" family` against the fonts `make deps` installs: DejaVu comes with Chromium,
    /// Noto Color Emoji is `fonts-noto-color-emoji`).
    static let allowed: [Unicode.Scalar: String] = [
        "°": "DejaVu Sans", "·": "DejaVu Sans", "×": "DejaVu Sans", "–": "DejaVu Sans", "—": "DejaVu Sans",
        "…": "DejaVu Sans", "←": "DejaVu Sans", "↑": "DejaVu Sans", "→": "DejaVu Sans", "↓": "DejaVu Sans",
        "↳": "DejaVu Sans", "∅": "DejaVu Sans", "⌨": "DejaVu Sans", "⏎": "DejaVu Sans", "▣": "DejaVu Sans",
        "▤": "DejaVu Sans", "▶": "DejaVu Sans", "◎": "DejaVu Sans", "♪": "DejaVu Sans", "✂": "DejaVu Sans",
        "✔": "DejaVu Sans", "✕": "DejaVu Sans", "✘": "DejaVu Sans", "👆": "Noto Color Emoji",
        "💬": "Noto Color Emoji", "📱": "Noto Color Emoji", "🗣": "Noto Color Emoji",
    ]

    /// The characters beyond ASCII in `text`, leaving out embedded audio.
    static func glyphs(_ text: String) -> Set<Unicode.Scalar> {
        Set(text.unicodeScalars.filter { $0.value > 0x7F })
    }

    /// The compare page of every before/after pair under Scripts/ (what `earshot compare` writes, without audio).
    static func comparePages() throws -> [(name: String, html: String)] {
        let scripts = ReviewFixtures.root.appendingPathComponent("Scripts")
        var pages: [(String, String)] = []
        for pattern in try FileManager.default.contentsOfDirectory(atPath: scripts.path).sorted() {
            let files = try FileManager.default.contentsOfDirectory(
                atPath: scripts.appendingPathComponent(pattern).path)
            for before in files.sorted() where before.hasPrefix("before") && before.hasSuffix(".earshot") {
                let after = "after" + before.dropFirst("before".count)
                guard files.contains(after) else { continue }
                let html = ReviewPage.html(runs: [
                    ReviewPage.Run(label: "Before", report: try ReviewFixtures.report("\(pattern)/\(before)")),
                    ReviewPage.Run(label: "After", report: try ReviewFixtures.report("\(pattern)/\(after)")),
                ])
                pages.append(("\(pattern)/\(before)", html))
            }
        }
        return pages
    }

    /// The Swift files that write the page's text, without comments: every literal they hold may reach it.
    static let pageSources = [
        "Sources/EarshotReport/ReviewPage.swift", "Sources/EarshotReport/ReviewPage+Diff.swift",
        "Sources/EarshotReport/ReviewPage+Lanes.swift", "Sources/EarshotReport/ReviewPage+Render.swift",
        "Sources/EarshotReport/ReviewPage+Report.swift", "Sources/EarshotReport/ReviewPage+SVG.swift",
        "Sources/EarshotReport/ReviewPage+Style.swift", "Sources/EarshotReport/RunDiff.swift",
        "Sources/EarshotReport/Markup.swift",
        "Sources/EarshotCore/Timeline+Transcript.swift",
    ]

    @Test func everyGlyphOnEveryPatternsPageIsInAnInstalledFont() throws {
        let pages = try Self.comparePages()
        #expect(pages.count >= 5)
        for page in pages {
            let missing = Self.glyphs(page.html).filter { Self.allowed[$0] == nil }
            #expect(
                missing.isEmpty,
                "\(page.name): \(missing.map { "\($0) U+\(String($0.value, radix: 16, uppercase: true))" }) not in the allow-list"
            )
        }
    }

    @Test func everyGlyphThePageCodeCanWriteIsInAnInstalledFont() throws {
        for path in Self.pageSources {
            let source = try String(contentsOf: ReviewFixtures.root.appendingPathComponent(path), encoding: .utf8)
            let code = source.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            let missing = Self.glyphs(code.joined(separator: "\n")).filter { Self.allowed[$0] == nil }
            #expect(missing.isEmpty, "\(path): \(missing.map { String($0) }) not in the allow-list")
        }
    }

    @Test func aGlyphNoInstalledFontHasIsCaught() {
        // ⎘ (U+2398) is in neither DejaVu nor Noto Color Emoji: Chromium would draw a box.
        #expect(Self.allowed["⎘"] == nil)
        #expect(Self.glyphs("caption ⎘ here").contains { Self.allowed[$0] == nil })
        #expect(!Self.glyphs("caption 💬 here").contains { Self.allowed[$0] == nil })
    }

    @Test func theAllowListMatchesTheFontsOnThisMachine() throws {
        let fcList = ["/usr/bin/fc-list", "/bin/fc-list"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let tool = try #require(fcList, "fc-list is missing: run 'make deps' (fontconfig comes with chromium)")
        for (scalar, family) in Self.allowed.sorted(by: { $0.key.value < $1.key.value }) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = [":charset=\(String(scalar.value, radix: 16))", "family"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(
                output.contains(family),
                "\(scalar) is not in \(family) here: run 'make deps' (fonts-noto-color-emoji, chromium)")
        }
    }
}
