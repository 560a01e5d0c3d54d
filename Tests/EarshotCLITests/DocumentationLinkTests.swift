import EarshotCore
import Foundation
import Testing

/// The project points only at files it has: every relative link in README.md and the docs resolves, no
/// user-facing file names material outside the repository, and every finding names a page that exists.
@Suite struct DocumentationLinkTests {
    /// README.md, every Markdown file under docs/, and the READMEs next to voices, samples, editors and schemas.
    static func markdownFiles(root: String = packageRoot) -> [String] {
        let docs = (FileManager.default.enumerator(atPath: root + "/docs")?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        let readmes = [
            "README.md", "Voices/README.md", "Samples/README.md", "editors/README.md", "Tests/Schemas/README.md",
        ]
        .filter { FileManager.default.fileExists(atPath: root + "/" + $0) }
        return (readmes + docs).sorted()
    }

    /// Every relative link target in a Markdown text, with its line: `[text](target)` and `[text]: target`.
    static func links(in text: String) -> [(line: Int, target: String)] {
        let inline = try? NSRegularExpression(pattern: #"\]\(([^)\s]+)(?:\s+"[^"]*")?\)"#)
        let reference = try? NSRegularExpression(pattern: #"^\s*\[[^\]]+\]:\s*(\S+)"#)
        var found: [(Int, String)] = []
        var inFence = false
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle() }
            if inFence { continue }
            let range = NSRange(line.startIndex..., in: line)
            for expression in [inline, reference].compactMap({ $0 }) {
                for match in expression.matches(in: line, range: range) {
                    if let target = Range(match.range(at: 1), in: line) {
                        found.append((index + 1, String(line[target])))
                    }
                }
            }
        }
        return found.filter { link in
            !["http://", "https://", "mailto:"].contains { link.1.hasPrefix($0) }
        }
    }

    /// The anchors a Markdown text's headings get, as GitHub makes them: the title lowercased, every character
    /// but letters, digits, spaces, hyphens and underscores left out, spaces made hyphens; a title's second
    /// anchor ends in `-1`, its third in `-2`, ….
    static func anchors(in text: String) -> Set<String> {
        var found: Set<String> = []
        var seen: [String: Int] = [:]
        var inFence = false
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle() }
            let title = line.drop { $0 == "#" }
            guard !inFence, title.count < line.count, line.count - title.count <= 6, title.first == " " else {
                continue
            }
            let kept = title.trimmingCharacters(in: .whitespaces).lowercased().unicodeScalars.compactMap {
                scalar -> Character? in
                if scalar == " " { return "-" }
                let isWordCharacter = scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                return isWordCharacter || scalar == "-" || scalar == "_" ? Character(scalar) : nil
            }
            let anchor = String(kept)
            let earlier = seen[anchor, default: 0]
            seen[anchor] = earlier + 1
            found.insert(earlier == 0 ? anchor : "\(anchor)-\(earlier)")
        }
        return found
    }

    /// The broken links of the files under `root`: `file:line: target`. A link into a Markdown file that names a
    /// section (`page.md#section`, or `#section` in the same file) must name one of its headings.
    static func brokenLinks(root: String) throws -> [String] {
        var broken: [String] = []
        for file in markdownFiles(root: root) {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            let folder = URL(fileURLWithPath: root + "/" + file).deletingLastPathComponent()
            for (line, target) in links(in: text) {
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let resolved =
                    path.isEmpty ? root + "/" + file : folder.appendingPathComponent(path).standardizedFileURL.path
                if !FileManager.default.fileExists(atPath: resolved) || !resolved.hasPrefix(root) {
                    broken.append("\(file):\(line): \(target)")
                } else if parts.count == 2, resolved.hasSuffix(".md") {
                    let page = try String(contentsOfFile: resolved, encoding: .utf8)
                    let anchor = String(parts[1]).removingPercentEncoding ?? String(parts[1])
                    if !anchors(in: page).contains(anchor) {
                        broken.append("\(file):\(line): \(target) (no such heading)")
                    }
                }
            }
        }
        return broken
    }

    @Test func everyRelativeLinkInTheReadmeAndDocsResolves() throws {
        #expect(Self.markdownFiles().count >= 10)
        let broken = try Self.brokenLinks(root: packageRoot)
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    @Test func aLinkToAMissingPageIsReported() throws {
        let root = NSTemporaryDirectory() + "earshot-links-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/docs", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "See [the model](docs/model.md), [ok](docs/a.md#a), [web](https://example.com), [out](../x.md).\n"
            .write(toFile: root + "/README.md", atomically: true, encoding: .utf8)
        try "# A\n```\n[not a link](nowhere.md)\n```\n".write(
            toFile: root + "/docs/a.md", atomically: true, encoding: .utf8)
        #expect(try Self.brokenLinks(root: root) == ["README.md:1: docs/model.md", "README.md:1: ../x.md"])
    }

    @Test func aLinkToAMissingSectionIsReported() throws {
        let root = NSTemporaryDirectory() + "earshot-anchors-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/docs", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let readme = [
            "[a](docs/a.md#earshot-bench---scaling) [b](docs/a.md#reading-it) [c](docs/a.md#reading-it-1)",
            "[d](docs/a.md#top) [e](docs/a.md#reading-it-2) [f](docs/a.md#fenced) [g](#here) [h](#there)",
            "## Here",
        ]
        try readme.joined(separator: "\n").write(toFile: root + "/README.md", atomically: true, encoding: .utf8)
        let page = "# `earshot bench --scaling`\n## Reading it\n### Reading it!\n```\n# Fenced\n```\n#Not a heading\n"
        try page.write(toFile: root + "/docs/a.md", atomically: true, encoding: .utf8)
        #expect(
            try Self.brokenLinks(root: root) == [
                "README.md:2: docs/a.md#top (no such heading)", "README.md:2: docs/a.md#reading-it-2 (no such heading)",
                "README.md:2: docs/a.md#fenced (no such heading)", "README.md:2: #there (no such heading)",
            ])
        #expect(Self.anchors(in: page) == ["earshot-bench---scaling", "reading-it", "reading-it-1"])
    }

    /// Names of material that is not in the repository, which users never get.
    static let outsideMaterial = ["../shared", "/work/shared", "SPEECH-MODEL.md", "ENGINE-NOTES.md"]

    @Test func noUserFacingFileNamesMaterialOutsideTheRepository() throws {
        let sources = (FileManager.default.enumerator(atPath: packageRoot + "/Sources")?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".c") || $0.hasSuffix(".h") }.map { "Sources/" + $0 }
        let editors = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/editors")) ?? []
        let files = Self.markdownFiles() + sources + editors.map { "editors/" + $0 } + ["Makefile", "Package.swift"]
        var mentions: [String] = []
        for file in files {
            let text = try String(contentsOfFile: packageRoot + "/" + file, encoding: .utf8)
            for name in Self.outsideMaterial where text.contains(name) { mentions.append("\(file): \(name)") }
        }
        #expect(mentions.isEmpty, "\(mentions.joined(separator: "\n"))")
    }

    @Test func everyFindingAndEveryPatternFolderHasItsPage() throws {
        let patterns = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Scripts").filter {
            !$0.hasPrefix(".")
        }
        let pages = Set(FindingRules.all.map(\.page) + patterns.map { FindingRules.page(forPattern: $0) })
        #expect(pages.count >= 5)
        for page in pages {
            let path = packageRoot + "/" + page
            #expect(FileManager.default.fileExists(atPath: path), "\(page) is missing")
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            for rule in FindingRules.all where rule.page == page {
                #expect(text.contains("`\(rule.id)`"), "\(page) does not describe the finding \(rule.id)")
            }
        }
    }
}
