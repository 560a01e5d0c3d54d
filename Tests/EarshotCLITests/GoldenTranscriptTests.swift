import Foundation
import Testing

@testable import EarshotCLI
@testable import EarshotReport

/// Golden transcripts as a designer uses them: record, change the script, see the diff, accept it.
@Suite struct GoldenTranscriptTests {
    @Test func recordThenAChangedTimelineFailsWithADiffAndUpdateAcceptsIt() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let script = folder.path + "/after-search.earshot"
        try FileManager.default.copyItem(
            atPath: packageRoot + "/Scripts/announcement-spam/after-search.earshot", toPath: script)
        let golden = folder.path + "/after-search.transcript"

        let recorded = try EarshotBinary.run(["check", "--record", "after-search.earshot"], in: folder.path)
        #expect(recorded.status == 0, "\(recorded.error)")
        #expect(recorded.output.contains("transcript recorded: after-search.transcript"))
        let first = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(first.contains("type \"j\""))

        let same = try EarshotBinary.run(["check", "after-search.earshot"], in: folder.path)
        #expect(same.status == 0, "an unchanged run matches its transcript: \(same.output)")
        #expect(!same.output.contains("timeline changed"))

        // The fix's announcement now says something else: the checks still pass, the timeline does not match.
        let edited = try String(contentsOfFile: script, encoding: .utf8)
            .replacingOccurrences(of: "type \"jasmine\"", with: "type \"jasmin\"")
        try edited.write(toFile: script, atomically: true, encoding: .utf8)
        let changed = try EarshotBinary.run(["check", "after-search.earshot"], in: folder.path)
        #expect(changed.status == 1)
        #expect(changed.output.contains("the timeline changed since after-search.transcript was recorded"))
        #expect(changed.output.contains("--- after-search.transcript (recorded)"))
        #expect(changed.output.contains("+++ after-search.earshot (this run)"))
        #expect(changed.output.contains("-") && changed.output.contains("@@ -"))
        #expect(changed.output.contains("1 transcript changed"))
        #expect(try String(contentsOfFile: golden, encoding: .utf8) == first, "a plain check never rewrites")
        let json = try EarshotBinary.run(["check", "--format", "json", "after-search.earshot"], in: folder.path)
        #expect(json.status == 1)
        try json.output.write(toFile: folder.path + "/report.json", atomically: true, encoding: .utf8)
        let verdict = try SchemaValidation.validate(folder.path + "/report.json", against: SchemaValidation.checkReport)
        #expect(verdict.isValid, "\(verdict.messages)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let transcript = (document["scripts"] as? [[String: Any]])?.first?["transcript"] as? [String: String]
        #expect(transcript?["status"] == "changed")
        #expect(transcript?["diff"]?.contains("@@ -") == true)

        let updated = try EarshotBinary.run(["check", "--update", "after-search.earshot"], in: folder.path)
        #expect(updated.status == 0)
        #expect(updated.output.contains("transcript updated: after-search.transcript"))
        #expect(try String(contentsOfFile: golden, encoding: .utf8) != first)
        let accepted = try EarshotBinary.run(["check", "after-search.earshot"], in: folder.path)
        #expect(accepted.status == 0, "\(accepted.output)")
    }

    @Test func recordLeavesAnExistingTranscriptAloneAndComparesIt() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        try FileManager.default.copyItem(
            atPath: packageRoot + "/Scripts/announcement-spam/after-search.earshot",
            toPath: folder.path + "/after-search.earshot")
        try "  0.000s  something else entirely\n".write(
            toFile: folder.path + "/after-search.transcript", atomically: true, encoding: .utf8)
        let result = try EarshotBinary.run(["check", "--record", "after-search.earshot"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.output.contains("-  0.000s  something else entirely"))
        #expect(
            try String(contentsOfFile: folder.path + "/after-search.transcript", encoding: .utf8)
                == "  0.000s  something else entirely\n")
    }

    @Test func theTranscriptFileSitsNextToTheScript() {
        #expect(GoldenTranscript.path(forScript: "Scripts/x/before-a.earshot") == "Scripts/x/before-a.transcript")
        #expect(GoldenTranscript.path(forScript: "before.earshot") == "before.transcript")
        #expect(GoldenTranscript.path(forScript: "/tmp/a.b/c.earshot") == "/tmp/a.b/c.transcript")
        let cases = [
            ("x/.hidden.earshot", "x/.hidden.transcript"), ("x/.earshot", "x/.earshot.transcript"),
            ("a.b.earshot", "a.b.transcript"), ("noextension", "noextension.transcript"),
            ("/top.earshot", "/top.transcript"), ("./x.earshot", "./x.transcript"),
            ("../d/x.earshot", "../d/x.transcript"), ("é/ü 🎧.earshot", "é/ü 🎧.transcript"),
            ("x/odd.", "x/odd..transcript"),
        ]
        for (script, transcript) in cases {
            #expect(GoldenTranscript.path(forScript: script) == transcript)
        }
        // As a file URL names it (what it was worked out with before), but for a script at the root.
        for (script, _) in cases where script.first != "/" {
            let url = URL(fileURLWithPath: script)
            let name = url.deletingPathExtension().lastPathComponent + ".transcript"
            let folder = (script as NSString).deletingLastPathComponent
            #expect(GoldenTranscript.path(forScript: script) == (folder.isEmpty ? name : folder + "/" + name))
        }
    }
}

/// The unified diff golden transcripts print.
@Suite struct LineDiffTests {
    @Test func equalTextsHaveNoDiff() {
        #expect(LineDiff.unified(old: "a\nb\n", new: "a\nb\n", oldName: "x", newName: "y") == "")
    }

    @Test func aChangedLineIsOneHunkWithTwoLinesOfContext() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n"
        let new = "1\n2\n3\n4\nfive\n6\n7\n8\n"
        #expect(
            LineDiff.unified(old: old, new: new, oldName: "old", newName: "new")
                == "--- old\n+++ new\n@@ -3,5 +3,5 @@\n 3\n 4\n-5\n+five\n 6\n 7\n")
    }

    @Test func farApartChangesAreSeparateHunksAndAdditionsAtTheEndCount() {
        let old = (1...12).map(String.init).joined(separator: "\n") + "\n"
        let new = "0\n" + old + "13\n"
        let diff = LineDiff.unified(old: old, new: new, oldName: "old", newName: "new")
        #expect(diff.components(separatedBy: "\n@@").count == 3, "\(diff)")
        #expect(diff.contains("@@ -1,2 +1,3 @@\n+0\n 1\n 2\n"), "\(diff)")
        #expect(diff.contains("@@ -11,2 +12,3 @@\n 11\n 12\n+13\n"), "\(diff)")
        #expect(diff.hasSuffix("+13\n"))
    }
}

/// When check prints colour.
@Suite struct TerminalStyleTests {
    @Test(
        arguments: [
            (true, [:], true),
            (false, [:], false),
            (true, ["NO_COLOR": "1"], false),
            (true, ["NO_COLOR": ""], true),
            (false, ["CLICOLOR_FORCE": "1"], true),
            (true, ["NO_COLOR": "1", "CLICOLOR_FORCE": "1"], false),
            (true, ["TERM": "dumb"], false),
        ] as [(Bool, [String: String], Bool)])
    func colourNeedsATerminalAndNoNO_COLOR(isTerminal: Bool, environment: [String: String], colored: Bool) {
        let style = TerminalStyle(isTerminal: isTerminal, environment: environment)
        #expect(style.colored == colored)
        #expect(style.fail("✘") == (colored ? "\u{1B}[31m✘\u{1B}[0m" : "✘"))
    }

    @Test func checkOutputThroughAPipeHasNoEscapeCodes() throws {
        let result = try EarshotBinary.run(
            ["check", packageRoot + "/Scripts/announcement-spam/before-search.earshot"])
        #expect(result.status == 1)
        #expect(!result.output.contains("\u{1B}["))
    }
}
