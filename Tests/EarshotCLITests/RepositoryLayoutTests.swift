import Foundation
import Testing

/// The repository's own layout: a clone must work on a case-insensitive disk (macOS's default).
@Suite struct RepositoryLayoutTests {
    /// Every file and folder under the package root, relative to it, skipping build products and Git's folder.
    static func repositoryPaths(under root: String) -> [String] {
        let skipped: Set<String> = [".build", ".git"]
        var paths: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        while let path = walker.nextObject() as? String {
            let first = path.split(separator: "/").first.map(String.init) ?? path
            if skipped.contains(first) || first.hasPrefix(".build") {
                walker.skipDescendants()
                continue
            }
            paths.append(path)
        }
        return paths
    }

    /// The groups of paths that name the same file on a case-insensitive disk.
    static func caseCollisions(in paths: [String]) -> [[String]] {
        Dictionary(grouping: paths) { $0.lowercased() }.values.filter { $0.count > 1 }.map { $0.sorted() }
    }

    @Test func noTwoPathsInTheRepositoryDifferOnlyByCase() {
        let paths = Self.repositoryPaths(under: packageRoot)
        #expect(paths.contains("Scripts"), "the walk must see the repository (found \(paths.count) paths)")
        #expect(Self.caseCollisions(in: paths) == [])
    }

    @Test func aPairThatDiffersOnlyByCaseIsFound() {
        let collisions = Self.caseCollisions(in: ["Scripts/a.earshot", "scripts", "Scripts", "docs"])
        #expect(collisions == [["Scripts", "scripts"]])
    }
}
