import EarshotCore
import EarshotScript
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@testable import EarshotReport

/// The element builder escapes by construction, and user text fed through every markup output (the review
/// page's HTML and SVG, JUnit XML) never reaches it unescaped.
@Suite struct MarkupTests {
    /// Text that closes an element, opens a script, and carries both quotes and an ampersand.
    static let probe = "</title><script>x</script>\"&'"
    /// The probe as it must appear in markup.
    static let escaped = "&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;&quot;&amp;&#39;"

    @Test(arguments: [
        ("a < b", "a &lt; b"), ("\"q\" & 'a'", "&quot;q&quot; &amp; &#39;a&#39;"), ("é 🎧 →", "é 🎧 →"),
        ("bell\u{07}tab\tline\n", "belltab\tline\n"), (probe, escaped),
    ])
    func textIsEscaped(raw: String, expected: String) {
        #expect(Markup.text(raw).rendered == expected)
    }

    @Test func attributeValuesAreEscapedAndNamesKeepOnlyNameCharacters() {
        let markup = Markup.element("p\"><script", [("title", Self.probe), ("on click=\"x", "y"), ("gone", nil)])
        #expect(markup.rendered == "<pscript title=\"\(Self.escaped)\" onclickx=\"y\"></pscript>")
        #expect(Markup.empty("br").rendered == "<br/>")
    }

    @Test func fragmentsJoinInOrderWithTheirSeparator() {
        let joined = [Markup.text("a"), .element("b", [], [.text("<")]), .text("c")].joined(separator: .newline)
        #expect(joined.rendered == "a\n<b>&lt;</b>\nc")
    }

    /// A before and an after script whose title, says-different line, element label, check name and check text
    /// all hold the probe, run on real espeak-ng.
    static func probeReports() throws -> (before: RunReport, after: RunReport, folder: String) {
        let folder = try ReviewFixtures.folder()
        func script(_ variant: String) -> String {
            """
            title    "Probe \(probe.replacingOccurrences(of: "\"", with: "\\\""))"
            pattern  custom probe
            variant  \(variant)
            says-different "\(probe.replacingOccurrences(of: "\"", with: "\\\""))"
            profile  voiceover

            screen S
              button go "Go \(probe.replacingOccurrences(of: "\"", with: "\\\""))"
              button stop "Stop"

            at 0s focus go
            at \(variant == "before" ? "1s" : "2s") focus stop
            wait 1s

            check "check \(probe.replacingOccurrences(of: "\"", with: "\\\""))":
              exactly 1 announcement matching "</title><script>x</script>"

            """
        }
        var reports: [RunReport] = []
        for variant in ["before", "after"] {
            let path = folder + "/\(variant)-probe.earshot"
            try script(variant).write(toFile: path, atomically: true, encoding: .utf8)
            reports.append(try ReviewFixtures.report(absolute: path))
        }
        return (reports[0], reports[1], folder)
    }

    /// Every output that is markup, for the probe's runs.
    static func markupOutputs() throws -> [(name: String, text: String)] {
        let (before, after, folder) = try probeReports()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let wav = folder + "/<x>\"&'.wav"
        try ReviewFixtures.wav("Go", to: wav)
        let runs = [
            ReviewPage.Run(label: "Before \(probe)", report: before, wavPath: wav),
            ReviewPage.Run(label: "After \(probe)", report: after, wavPath: wav),
        ]
        var linked = ReviewPage.Options(embedLimit: 0, pageDirectory: folder)
        linked.title = "Page \(probe)"
        return [
            ("review page", ReviewPage.html(runs: runs)),
            ("review page, linked audio", ReviewPage.html(runs: runs, options: linked)),
            ("JUnit", JUnitReport.xml([before, after])),
            ("JUnit, expecting variants", JUnitReport.xml([before, after], expectVariants: true)),
        ]
    }

    @Test func userTextNeverReachesAnyMarkupOutputUnescaped() throws {
        for output in try Self.markupOutputs() {
            #expect(!output.text.contains("<script>x"), "\(output.name): the probe's <script> is raw")
            #expect(!output.text.contains("</title><script"), "\(output.name): the probe's </title> is raw")
            #expect(!output.text.contains("\"&'"), "\(output.name): the probe's quotes and ampersand are raw")
            #expect(output.text.contains(Self.escaped), "\(output.name): the probe is missing")
            // Every output parses as XML, and the only script element is the page's own.
            let root = try PageParser.parse(output.text)
            #expect(root.all("script").count <= 1, "\(output.name): a script element came from user text")
        }
    }

    @Test func theProbeLandsEscapedInEveryKindOfPlace() throws {
        let outputs = try Self.markupOutputs()
        let page = outputs[0].text
        let e = Self.escaped
        // Element text: the heading, the run's section heading, the legend-free facts.
        #expect(page.contains("<h1>custom probe: Probe \(e)</h1>") || page.contains("<h1>probe: Probe \(e)</h1>"))
        #expect(page.contains("<p>\(e)</p>"))
        #expect(page.contains("<strong>check \(e)</strong>"))
        // Attribute values: the SVG's accessible name.
        #expect(page.contains("aria-label=\"Before \(e) timeline, "))
        // SVG <title>: the picture's and a mark's tooltip.
        #expect(page.contains("<title id=\"run1-overview-title\">Before \(e) timeline, "))
        #expect(page.contains("<title>") && page.contains("Go \(e)"))
        // The page's <title> (a custom one) and the WAV's name in the player.
        #expect(outputs[1].text.contains("<title>Page \(e) — Earshot review</title>"))
        #expect(page.contains("<strong>&lt;x&gt;&quot;&amp;&#39;.wav</strong>"))
        // JUnit: the test case's name and the failure's message.
        let junit = outputs[2].text
        #expect(junit.contains("name=\"check \(e)\""))
        #expect(
            junit.contains(
                "message=\"exactly 1 announcement matching &quot;&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;&quot;\""))
        // Parsed back, the text is the probe itself.
        let root = try PageParser.parse(page)
        #expect(root.all("strong").contains { $0.allText == "check \(Self.probe)" })
        #expect(
            root.all("svg").contains { $0.attributes["aria-label"]?.hasPrefix("Before \(Self.probe) timeline") == true }
        )
    }

    @Test func jsonOutputsCarryTheProbeIntact() throws {
        let (before, after, folder) = try Self.probeReports()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = CheckReport([before, after])
        for text in [report.json().rendered(), report.sarif().rendered(), before.timeline.jsonLines()] {
            for line in text.split(separator: "\n") where text.hasPrefix("{\"") {
                _ = try JSONSerialization.jsonObject(with: Data(line.utf8))
            }
            #expect(text.contains(#"</title><script>x</script>\"&'"#))
        }
        let parsed = try JSONSerialization.jsonObject(with: Data(report.json().rendered().utf8))
        #expect("\(parsed)".contains("script"))
    }
}
