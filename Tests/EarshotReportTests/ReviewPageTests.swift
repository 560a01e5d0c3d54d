import EarshotAudio
import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@testable import EarshotReport

/// Real runs of the pattern scripts (real espeak-ng durations) and WAVs of real speech, for the page tests.
enum ReviewFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The report `earshot check` makes for a script under Scripts/.
    static func report(_ relative: String) throws -> RunReport {
        try report(absolute: root.appendingPathComponent("Scripts").appendingPathComponent(relative).path)
    }

    /// The report `earshot check` makes for the script at `path`.
    static func report(absolute path: String) throws -> RunReport {
        let document = try ScenarioParser.parse(source: try String(contentsOfFile: path, encoding: .utf8), path: path)
        let synthesizer = try EspeakSynthesizer.shared(voicesDirectory: root.appendingPathComponent("Voices").path)
        let run = try ScenarioRunner.run(
            document, profile: try ScenarioRunner.profile(for: document), voice: .standard,
            speech: SpeechLibrary(synthesizer: synthesizer))
        return RunReport(
            run: run, checks: CheckEvaluator(run: run).evaluate(), findings: FindingRules.findings(in: run.timeline))
    }

    /// A fresh folder under the temporary directory.
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "earshot-review-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A WAV of `text` spoken by real espeak-ng, written to `path`.
    static func wav(_ text: String, to path: String) throws {
        let synthesizer = try EspeakSynthesizer.shared(voicesDirectory: root.appendingPathComponent("Voices").path)
        let speech = try synthesizer.synthesize(text, voice: .standard)
        let writer = try WAVWriter(path: path, sampleRate: speech.sampleRate)
        try writer.append(speech.samples)
        try writer.finish()
    }
}

/// An element of a parsed page.
final class PageNode {
    let name: String
    let attributes: [String: String]
    var children: [PageNode] = []
    var text = ""
    weak var parent: PageNode?

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// Every element below this one, depth first.
    var descendants: [PageNode] { children.flatMap { [$0] + $0.descendants } }

    /// All text inside, concatenated.
    var allText: String { text + children.map(\.allText).joined() }

    /// Descendants named `name` whose `class` attribute contains `className` (when given).
    func all(_ name: String, class className: String? = nil) -> [PageNode] {
        descendants.filter { node in
            node.name == name
                && (className.map { (node.attributes["class"] ?? "").split(separator: " ").contains(Substring($0)) }
                    ?? true)
        }
    }
}

/// Parses the page with Foundation's XML parser: the page is written as well-formed XML (polyglot HTML).
final class PageParser: NSObject, XMLParserDelegate {
    let root = PageNode(name: "#document", attributes: [:])
    private var current: PageNode
    private(set) var error: Error?

    override init() {
        current = root
        super.init()
    }

    static func parse(_ html: String) throws -> PageNode {
        let delegate = PageParser()
        let parser = XMLParser(data: Data(html.utf8))
        parser.delegate = delegate
        guard parser.parse() else {
            throw delegate.error ?? parser.parserError ?? CocoaError(.coderReadCorrupt)
        }
        return delegate.root
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let node = PageNode(name: elementName, attributes: attributes)
        node.parent = current
        current.children.append(node)
        current = node
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        current = current.parent ?? root
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { current.text += string }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { error = parseError }
}

@Suite("Review page structure")
struct ReviewPageTests {
    /// The announcement-spam search comparison, as `earshot compare` would show it, with one shared WAV.
    static func comparePage() throws -> (html: String, before: RunReport, after: RunReport, folder: String) {
        let before = try ReviewFixtures.report("announcement-spam/before-search.earshot")
        let after = try ReviewFixtures.report("announcement-spam/after-search.earshot")
        let folder = try ReviewFixtures.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let wav = folder + "/compare.wav"
        try ReviewFixtures.wav("Before. After.", to: wav)
        let html = ReviewPage.html(runs: [
            ReviewPage.Run(label: "Before", report: before, wavPath: wav, audioOffset: .seconds(1)),
            ReviewPage.Run(label: "After", report: after, wavPath: wav, audioOffset: .seconds(8)),
        ])
        return (html, before, after, folder)
    }

    @Test func thePageParsesAndDeclaresItsLanguageTitleAndHeadings() throws {
        let (html, before, _, _) = try Self.comparePage()
        let page = try PageParser.parse(html)
        let document = try #require(page.all("html").first)
        #expect(document.attributes["lang"] == "en")
        #expect(page.all("title").first?.allText.contains(before.run.document.header.pattern ?? "-") == true)
        #expect(page.all("h1").count == 1)
        let headings = page.all("h2").map(\.allText)
        #expect(headings.contains("Listen") && headings.contains("Timeline"))
        #expect(headings.contains { $0.hasPrefix("Before: ") } && headings.contains { $0.hasPrefix("After: ") })
        #expect(page.all("dd").contains { $0.allText == "before → after" })
        let different = try #require(before.run.document.header.saysDifferent)
        #expect(html.contains(Markup.escape(different)))
        #expect(
            !html.contains("src=\"http") && !html.contains("href=") && !html.contains("@import"),
            "the page loads nothing from outside")
    }

    @Test func eachRunHasOneOverviewPictureWithEveryLaneAndAnAccessibleName() throws {
        let (html, _, _, _) = try Self.comparePage()
        let page = try PageParser.parse(html)
        let svgs = page.all("svg", class: "timeline")
        for run in ["run1", "run2"] {
            let overviews = svgs.filter { $0.all("title").first?.attributes["id"] == "\(run)-overview-title" }
            #expect(overviews.count == 1, "\(run) has \(overviews.count) overview pictures")
            guard let svg = overviews.first else { continue }
            #expect(svg.attributes["role"] == "img")
            #expect(!(svg.attributes["aria-label"] ?? "").isEmpty)
            #expect(svg.attributes["aria-labelledby"] == "\(run)-overview-title \(run)-overview-desc")
            let description = svg.all("desc").first?.allText ?? ""
            #expect(description.contains("cut off"))
            let lanes = svg.all("g").compactMap { $0.attributes["class"] }.filter { $0.hasPrefix("lane-") }
            #expect(lanes == ["lane-input", "lane-speech", "lane-sounds", "lane-focus", "lane-on-screen"])
        }
    }

    @Test func everyCutUtteranceEndsInACutMarkAndEveryKeystrokeIsATick() throws {
        let (html, before, after, _) = try Self.comparePage()
        let page = try PageParser.parse(html)
        for (run, report) in [("run1", before), ("run2", after)] {
            let svg = try #require(
                page.all("svg").first { $0.all("title").first?.attributes["id"] == "\(run)-overview-title" })
            let timeline = report.run.timeline
            // Speech cut before its first word sounded is a dot marked "nothing heard", not a bar.
            let cut = timeline.utterances.filter { $0.wasInterrupted && !$0.wasCutBeforeHeard }
            let lost = timeline.utterances.filter(\.wasCutBeforeHeard)
            #expect(svg.all("polyline", class: "cut").count == cut.count)
            let lostDots = svg.all("g", class: "lane-speech").flatMap { $0.all("g", class: "m") }
                .filter { ($0.all("title").first?.allText ?? "").contains("nothing heard, cut before its first word") }
            #expect(lostDots.count == lost.count)
            #expect(lostDots.allSatisfy { !$0.all("circle", class: "dot").isEmpty })
            let keystrokes = timeline.keystrokes.count
            let inputTicks = svg.all("g", class: "lane-input").flatMap { $0.all("rect", class: "tick") }
            #expect(inputTicks.count >= keystrokes)
            let speechBars = svg.all("g", class: "lane-speech").flatMap { $0.all("rect", class: "bar") }
            #expect(speechBars.count == timeline.utterances.filter { $0.start != nil }.count - lost.count)
            // Every cut mark names what cut it, in the bar's tooltip at least.
            let tooltips = svg.all("g", class: "m").compactMap { $0.all("title").first?.allText }
            #expect(tooltips.filter { $0.contains("cut by ") }.count == cut.count)
        }
        let beforeCuts = before.run.timeline.utterances.filter { $0.wasInterrupted }.count
        #expect(beforeCuts >= 6, "the before run must show the echoes cut")
        let lostBefore = before.run.timeline.utterances.filter(\.wasCutBeforeHeard).count
        #expect(lostBefore > 0, "the before run loses speech")
    }

    @Test func theCrowdedStretchGetsACloseUpOnTheSameScaleForBothRuns() throws {
        let (html, _, _, _) = try Self.comparePage()
        let page = try PageParser.parse(html)
        let closeUps = page.all("svg").filter { ($0.all("title").first?.attributes["id"] ?? "").contains("closeup") }
        #expect(closeUps.count == 2)
        func axis(_ svg: PageNode) -> [String] {
            svg.all("text", class: "axis").map { "\($0.attributes["x"] ?? "")=\($0.allText)" }
        }
        let overviews = page.all("svg").filter { ($0.all("title").first?.attributes["id"] ?? "").contains("overview") }
        #expect(overviews.count == 2)
        #expect(axis(overviews[0]) == axis(overviews[1]), "before and after share one time scale")
        if closeUps.count == 2 { #expect(axis(closeUps[0]) == axis(closeUps[1])) }
        // In the close-up every cut in the before run is labelled, not just tooltipped.
        let cutLabels = closeUps.first?.all("text", class: "cut-label") ?? []
        #expect(cutLabels.count >= 6)
    }

    @Test func aSharedWAVIsOnePlayerEmbeddedAndMarksSeekItAtTheRunsOffset() throws {
        let (html, before, _, _) = try Self.comparePage()
        let page = try PageParser.parse(html)
        let players = page.all("audio")
        #expect(players.count == 1)
        let source = players.first?.attributes["src"] ?? ""
        #expect(source.hasPrefix("data:audio/wav;base64,UklGR"), "an embedded WAV starts with RIFF")
        #expect(players.first?.attributes["controls"] != nil)
        let firstSpeech = try #require(before.run.timeline.heardUtterances.first?.start)
        let marks = page.all("g", class: "m").filter { $0.attributes["data-audio"] == "audio-1" }
        #expect(
            marks.contains { $0.attributes["data-t"] == TimelineDrawing.format(1 + firstSpeech.seconds, digits: 3) })
        #expect(page.all("script").count == 1)
    }

    @Test func aLargeWAVIsReferencedBesideThePageByARelativePath() throws {
        let report = try ReviewFixtures.report("announcement-spam/after-search.earshot")
        let folder = try ReviewFixtures.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/audio files", withIntermediateDirectories: true)
        let wav = folder + "/audio files/after.wav"
        try ReviewFixtures.wav("After.", to: wav)
        let pagePath = folder + "/pages/review.html"
        try FileManager.default.createDirectory(atPath: folder + "/pages", withIntermediateDirectories: true)
        try ReviewPage.write(
            runs: [ReviewPage.Run(label: "After", report: report, wavPath: wav)], to: pagePath,
            options: ReviewPage.Options(embedLimit: 0))
        let page = try PageParser.parse(try String(contentsOfFile: pagePath, encoding: .utf8))
        #expect(page.all("audio").first?.attributes["src"] == "../audio%20files/after.wav")
        #expect(page.all("figcaption").contains { $0.allText.contains("beside this page") })
    }

    /// In before-order-status "11:30" cuts "11:31" and is cut at its first frame by "Your order is on the way".
    @Test func lostSpeechIsADotAndACutterNeverHeardSaysSo() throws {
        let lost = try ReviewFixtures.report("announcement-spam/before-order-status.earshot")
        let heard = try ReviewFixtures.report("announcement-spam/after-order-status.earshot")
        let folder = try ReviewFixtures.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let wav = folder + "/one.wav"
        try ReviewFixtures.wav("Before.", to: wav)
        func page(_ report: RunReport) throws -> PageNode {
            try PageParser.parse(
                ReviewPage.html(runs: [ReviewPage.Run(label: "Run", report: report, wavPath: wav, audioOffset: .zero)]))
        }
        let texts = try page(lost).all("text").map(\.allText)
        #expect(texts.contains("∅ 11:30 (nothing heard)"))
        #expect(texts.contains("✂ announce \"11:30\" (never heard)"))
        let titles = try page(lost).all("title").map(\.allText)
        #expect(
            titles.contains {
                $0.contains("\"11:31—\" of \"11:31\", cut by announcement \"11:30\" (itself never heard)")
            })
        let plain = try page(heard).all("text").map(\.allText)
        #expect(!plain.contains { $0.contains("never heard") || $0.contains("nothing heard") })
    }

    @Test(arguments: [
        ("/a/b/x.wav", "/a/b", "x.wav"),
        ("/a/b/x.wav", "/a/c", "../b/x.wav"),
        ("/a/x y#1.wav", "/a", "x%20y%231.wav"),
        ("/a/b/c/x.wav", "/a", "b/c/x.wav"),
    ])
    func referencesAreRelativeToThePageAndPercentEncoded(file: String, directory: String, expected: String) {
        #expect(ReviewPage.relativeReference(to: file, from: directory) == expected)
    }

    @Test func failingChecksAndFindingsAreHighlightedWithTheirEvidence() throws {
        let (html, before, after, _) = try Self.comparePage()
        let page = try PageParser.parse(html)
        let failing = before.checks.filter { !$0.passed }
        #expect(!failing.isEmpty)
        let failedItems = page.all("li", class: "fail").filter { $0.attributes["class"]?.contains("check") == true }
        #expect(failedItems.count == failing.count)
        for check in failing {
            #expect(failedItems.contains { $0.allText.contains(check.name) }, "\(check.name) is not shown failing")
            for evidence in check.assertions.flatMap(\.evidence) {
                #expect(failedItems.contains { $0.allText.contains(evidence) })
            }
        }
        let passedItems = page.all("li", class: "pass").filter { $0.attributes["class"]?.contains("check") == true }
        #expect(passedItems.count == before.checks.count - failing.count + after.checks.filter(\.passed).count)
        let findingRows = page.all("tr", class: "finding")
        #expect(findingRows.count == before.findings.count + after.findings.count)
        for finding in before.findings {
            #expect(findingRows.contains { $0.allText.contains(finding.rule) && $0.allText.contains(finding.message) })
        }
        let transcripts = page.all("pre", class: "transcript").map(\.allText)
        #expect(transcripts == [before.run.timeline.transcript(), after.run.timeline.transcript()])
    }

    @Test func textFromScriptsIsEscapedInTextAndAttributes() throws {
        var report = try ReviewFixtures.report("announcement-spam/before-search.earshot")
        let hostile = "</text><script>alert('x')</script> & \"quoted\""
        report.run.document.header.title = hostile
        report.run.timeline.utterances[0].utterance.text = hostile
        if let index = report.checks.indices.first { report.checks[index].name = hostile }
        let html = ReviewPage.html(runs: [(label: "Before <1>", report: report, wavPath: nil)])
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("&lt;/text&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;"))
        let page = try PageParser.parse(html)
        #expect(page.all("script").isEmpty, "no audio, so no script, and none smuggled in")
        #expect(page.all("h1").first?.allText == hostile)
        #expect(page.all("svg").first?.attributes["aria-label"]?.hasPrefix("Before <1> timeline") == true)
        let tooltips = page.all("g", class: "m").compactMap { $0.all("title").first?.allText }
        #expect(tooltips.contains { $0.contains(hostile) })
        #expect(page.all("li", class: "check").contains { $0.allText.contains(hostile) })
    }

    @Test func thePageIsTheSameEveryTimeAndShowsMutedSoundsHollowAndDroppedSpeechAsDots() throws {
        let before = try ReviewFixtures.report("audio-only-task/before-sound-off.earshot")
        let after = try ReviewFixtures.report("audio-only-task/after-sound-off.earshot")
        let runs = [
            (label: "Before", report: before, wavPath: String?.none), (label: "After", report: after, wavPath: nil),
        ]
        let first = ReviewPage.html(runs: runs)
        #expect(first == ReviewPage.html(runs: runs))
        let page = try PageParser.parse(first)
        let hollow = page.all("rect", class: "hollow")
        #expect(hollow.count >= 2, "the muted media and sound are hollow bars")
        #expect(page.all("text", class: "in-hollow").contains { $0.allText.contains("(muted)") })
        let dropped = after.run.timeline.utterances.filter {
            if case .dropped = $0.outcome { return true }
            return false
        }
        #expect(!dropped.isEmpty)
        // Counted on the overviews: the close-up (where the runs differ) draws some of them again.
        let overviews = page.all("svg").filter { ($0.all("title").first?.attributes["id"] ?? "").contains("overview") }
        #expect(overviews.flatMap { $0.all("circle", class: "dot") }.count == dropped.count)
    }

    @Test(arguments: [
        (0.0...5.0, 0.5, "0.5s"), (0.0...60.0, 5.0, "5s"), (1.85...3.15, 0.1, "1.9s"),
    ])
    func axisTicksAreRoundAndFew(window: ClosedRange<Double>, step: Double, firstLabel: String) throws {
        let ticks = TimelineDrawing.ticks(for: window)
        #expect(ticks.count <= 15 && ticks.count >= 5)
        let gaps = zip(ticks.dropFirst(), ticks).map { $0 - $1 }
        #expect(gaps.allSatisfy { abs($0 - step) < 1e-9 })
        let label = TimelineDrawing.secondsLabel(try #require(ticks.first { $0 > window.lowerBound }))
        #expect(label == firstLabel)
    }
}
