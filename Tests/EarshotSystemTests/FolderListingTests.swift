import Foundation
import Testing

@testable import EarshotSystem

/// The scripts of a folder are listed as Foundation's directory enumerator lists them (hidden entries, links as
/// entries, links to folders not followed), sorted, folders left out.
@Suite struct FolderListingTests {
    /// A tree with nested and hidden folders, hidden files, other extensions, a link to a file, a link to a
    /// folder of scripts, a dangling link and names outside ASCII.
    static func makeTree() throws -> String {
        let manager = FileManager.default
        let root = NSTemporaryDirectory() + "earshot-listing-" + UUID().uuidString
        let outside = root + "-outside"
        for folder in [
            root + "/a/b/c", root + "/.hidden", root + "/Zed", root + "/émoji 🎧", outside,
        ] {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        for file in [
            "top.earshot", "a/one.earshot", "a/b/two.earshot", "a/b/c/three.earshot", "a/b/c/notes.txt",
            ".hidden/secret.earshot", ".dot.earshot", "Zed/upper.earshot", "émoji 🎧/ünïcode.earshot",
            "a/b/almost.earshot.bak",
        ] {
            try Data("title \"x\"\n".utf8).write(to: URL(fileURLWithPath: root + "/" + file))
        }
        try Data().write(to: URL(fileURLWithPath: outside + "/linked.earshot"))
        try manager.createSymbolicLink(
            atPath: root + "/a/file-link.earshot", withDestinationPath: root + "/top.earshot")
        try manager.createSymbolicLink(atPath: root + "/folder-link", withDestinationPath: outside)
        try manager.createSymbolicLink(atPath: root + "/dangling.earshot", withDestinationPath: root + "/nowhere")
        return root
    }

    static func remove(_ root: String) {
        try? FileManager.default.removeItem(atPath: root)
        try? FileManager.default.removeItem(atPath: root + "-outside")
    }

    @Test func aFolderIsListedAsFoundationsEnumeratorListsIt() throws {
        let root = try Self.makeTree()
        defer { Self.remove(root) }
        let enumerated = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
            .filter { path in
                var status = stat()
                return path.hasSuffix(".earshot") && lstat(root + "/" + path, &status) == 0
                    && status.st_mode & S_IFMT != S_IFDIR
            }
            .sorted()
        let listed = FolderListing.files(under: root, endingWith: ".earshot")
        #expect(listed == enumerated)
        #expect(
            listed == [
                ".dot.earshot", ".hidden/secret.earshot", "Zed/upper.earshot", "a/b/c/three.earshot",
                "a/b/two.earshot", "a/file-link.earshot", "a/one.earshot", "dangling.earshot", "top.earshot",
                "émoji 🎧/ünïcode.earshot",
            ])
        #expect(FolderListing.files(under: root + "/", endingWith: ".earshot") == listed, "a trailing slash")
    }

    @Test func aFolderNamedLikeAScriptIsSearchedNotListed() throws {
        let root = try Self.makeTree()
        defer { Self.remove(root) }
        try FileManager.default.createDirectory(atPath: root + "/odd.earshot", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: root + "/odd.earshot/inner.earshot"))
        let listed = FolderListing.files(under: root, endingWith: ".earshot")
        #expect(listed.contains("odd.earshot/inner.earshot") && !listed.contains("odd.earshot"))
    }

    @Test func aMissingFolderListsNothing() {
        #expect(FolderListing.files(under: "/nonexistent-" + UUID().uuidString, endingWith: ".earshot").isEmpty)
    }
}
