import EarshotAudio
import EarshotCore
import Foundation
import Testing

/// Checks a document against the parts of the WebVTT format Earshot writes.
enum WebVTTValidator {
    struct Parsed {
        var cues: [(start: Int64, end: Int64, text: String)] = []
        var notes: [String] = []
    }

    static func milliseconds(_ stamp: Substring) -> Int64? {
        let parts = stamp.split(separator: ":")
        guard parts.count == 3, let hours = Int64(parts[0]), let minutes = Int64(parts[1]) else { return nil }
        let secondParts = parts[2].split(separator: ".")
        guard secondParts.count == 2, secondParts[1].count == 3, let seconds = Int64(secondParts[0]),
            let millis = Int64(secondParts[1]), minutes < 60, seconds < 60
        else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis
    }

    static func validate(_ document: String) -> (parsed: Parsed, problems: [String]) {
        var problems: [String] = []
        var parsed = Parsed()
        let blocks = document.components(separatedBy: "\n\n")
        if blocks.first != "WEBVTT" { problems.append("header is not WEBVTT") }
        if !document.hasSuffix("\n") { problems.append("no final newline") }
        for block in blocks.dropFirst() where !block.isEmpty {
            if block.hasPrefix("NOTE ") {
                if block.contains("-->") { problems.append("note contains -->: \(block)") }
                parsed.notes.append(block.trimmingCharacters(in: .newlines))
                continue
            }
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
            guard lines.count >= 3 else {
                problems.append("short cue: \(block)")
                continue
            }
            let timing = lines[1].components(separatedBy: " --> ")
            guard timing.count == 2, let start = milliseconds(Substring(timing[0])),
                let end = milliseconds(Substring(timing[1]))
            else {
                problems.append("bad timing line: \(lines[1])")
                continue
            }
            if end <= start { problems.append("cue ends before it starts: \(lines[1])") }
            if let last = parsed.cues.last, start < last.start { problems.append("cues out of order at \(lines[1])") }
            let text = lines[2...].joined(separator: "\n")
            if text.contains("-->") { problems.append("cue text contains -->") }
            if text.contains("<") || text.contains(">") { problems.append("unescaped < or >: \(text)") }
            if text.replacingOccurrences(of: "&amp;", with: "").replacingOccurrences(of: "&lt;", with: "")
                .replacingOccurrences(of: "&gt;", with: "").contains("&")
            {
                problems.append("unescaped &: \(text)")
            }
            parsed.cues.append((start, end, text))
        }
        return (parsed, problems)
    }
}

@Suite("WebVTT transcripts")
struct WebVTTTests {
    static let voice = VoiceProfile.standard

    static func timeline() -> Timeline {
        var timeline = Timeline()
        let echo = Utterance(id: 0, text: "j", kind: .typingEcho, cause: "type", requestedAt: .milliseconds(500))
        var first = UtteranceRecord(utterance: echo, voice: voice, rule: "V11")
        let announcement = Utterance(
            id: 1, text: "Results <updated> & more --> soon", kind: .announcement, cause: "announce",
            requestedAt: .milliseconds(510))
        first.outcome = .interrupted(
            start: .milliseconds(500), cut: .milliseconds(510),
            by: Interruption(utterance: 1, description: "announcement \"Results <updated>\""))
        first.cutPoint = SpeechTiming(
            text: "j", frameCount: 2_000, sampleRate: 22_050, words: [WordBoundary(frame: 0, textRange: 0..<1)]
        ).cut(afterFrames: 220)
        var second = UtteranceRecord(utterance: announcement, voice: voice, rule: "V1")
        second.outcome = .spoken(start: .milliseconds(510), end: .milliseconds(1_800))
        let late = Utterance(id: 2, text: "Later", kind: .focusRead, cause: "swipe", requestedAt: .seconds(3_725.5))
        var third = UtteranceRecord(utterance: late, voice: voice, rule: "V4")
        third.outcome = .spoken(start: .seconds(3_725.5), end: .seconds(3_726.25))
        let dropped = Utterance(id: 3, text: "never", kind: .announcement, cause: "announce", requestedAt: .zero)
        var fourth = UtteranceRecord(utterance: dropped, voice: voice, rule: "V2")
        fourth.outcome = .dropped(at: .milliseconds(1), reason: .focusMoved, by: nil)
        // Requested out of start order on purpose: the document must still be ordered.
        timeline.utterances = [third, first, second, fourth]
        timeline.end = .seconds(3_727)
        return timeline
    }

    @Test func theDocumentValidatesWithOrderedTimestampsAndEscapedText() {
        let document = WebVTT(cues: WebVTT.cues(for: Self.timeline())).document
        let (parsed, problems) = WebVTTValidator.validate(document)
        #expect(problems.isEmpty, "\(problems)")
        #expect(parsed.cues.map(\.start) == [500, 510, 3_725_500])
        #expect(document.contains("01:02:05.500 --> 01:02:06.250"))
        #expect(document.contains("Results &lt;updated&gt; &amp; more --&gt; soon"))
    }

    @Test func aCutCueShowsWhatWasHeardTheCutMarkAndWhatCutIt() {
        let cues = WebVTT.cues(for: Self.timeline())
        let cut = cues.first { $0.start == .milliseconds(500) }
        #expect(cut?.text == "j— ✂ cut by announcement “Results <updated> & more --> soon”")
        #expect(cut?.end == .milliseconds(510))
        #expect(!cues.contains { $0.text.contains("never") }, "dropped speech was never heard")
    }

    @Test func cuesShiftByTheSegmentOffset() {
        let cues = WebVTT.cues(for: Self.timeline(), offset: .seconds(2))
        #expect(cues.map(\.start).sorted().first == .milliseconds(2_500))
    }

    /// "Added to cart" sounds from 1 s and is cut at 1.3 s by "11:30", which is cut at its first frame by
    /// "Your order is on the way".
    static func lostTimeline() -> Timeline {
        var timeline = Timeline()
        func record(_ id: Int, _ text: String, _ outcome: Outcome, heard: Int) -> UtteranceRecord {
            let utterance = Utterance(
                id: id, text: text, kind: .announcement, cause: "announce", requestedAt: .seconds(1))
            var record = UtteranceRecord(utterance: utterance, voice: voice, rule: "V1", outcome: outcome)
            let words = [WordBoundary(frame: 0, textRange: 0..<min(5, text.count))]
            record.cutPoint = SpeechTiming(text: text, frameCount: 22_050, sampleRate: 22_050, words: words)
                .cut(afterFrames: heard)
            return record
        }
        timeline.utterances = [
            record(
                0, "Added to cart",
                .interrupted(start: .seconds(1), cut: .seconds(1.3), by: Interruption(utterance: 1, description: "")),
                heard: 6_615),
            record(
                1, "11:30",
                .interrupted(start: .seconds(1.3), cut: .seconds(1.3), by: Interruption(utterance: 2, description: "")),
                heard: 0),
            record(2, "Your order is on the way", .spoken(start: .seconds(1.3), end: .seconds(2.5)), heard: 0),
        ]
        timeline.end = .seconds(3)
        return timeline
    }

    @Test func speechCutBeforeItsFirstWordIsANoteNamingItsText() {
        let document = WebVTT(cues: WebVTT.cues(for: Self.lostTimeline())).document
        let (parsed, problems) = WebVTTValidator.validate(document)
        #expect(problems.isEmpty, "\(problems)")
        #expect(
            parsed.notes == [
                "NOTE 00:00:01.300 nothing heard: announcement “11:30”, cut before its first word by announcement "
                    + "“Your order is on the way”"
            ])
        #expect(parsed.cues.map(\.start) == [1_000, 1_300])
        // The cue numbers skip the note.
        #expect(document.contains("\n2\n00:00:01.300 --> 00:00:02.500\n"))
        // The base timeline has no lost speech, so no note.
        #expect(WebVTTValidator.validate(WebVTT(cues: WebVTT.cues(for: Self.timeline())).document).parsed.notes.isEmpty)
    }

    @Test func aCutCueSaysWhenWhatCutItWasNeverHeard() {
        let cues = WebVTT.cues(for: Self.lostTimeline())
        #expect(
            cues.first { $0.start == .seconds(1) }?.text == "Added— ✂ cut by announcement “11:30” (itself never heard)")
        let heardCutter = WebVTT.cues(for: Self.timeline()).first { $0.start == .milliseconds(500) }
        #expect(heardCutter?.text.contains("never heard") == false)
    }

    @Test(arguments: [
        ("a & b", "a &amp; b"), ("<v Bob>", "&lt;v Bob&gt;"), ("two\nlines", "two lines"), ("plain", "plain"),
    ])
    func cueTextIsEscaped(raw: String, escaped: String) {
        #expect(WebVTT.escape(raw) == escaped)
    }

    @Test(arguments: [(Int64(0), "00:00:00.000"), (61_001, "00:01:01.001"), (36_000_000, "10:00:00.000")])
    func timestampsUseHoursMinutesSecondsAndMilliseconds(milliseconds: Int64, expected: String) {
        #expect(WebVTT.timestamp(.milliseconds(milliseconds)) == expected)
    }
}
