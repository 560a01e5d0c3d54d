/// A line-by-line diff in the unified style `diff -u` and code review tools show: `---`/`+++` names, then
/// hunks of `@@ -a,b +c,d @@` with two lines of context, `-` for a line only in the old text and `+` for a
/// line only in the new.
public enum LineDiff {
    /// One line of an edit script.
    enum Edit: Equatable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// The unified diff of two texts, or an empty string when they are equal.
    public static func unified(old: String, new: String, oldName: String, newName: String, context: Int = 2)
        -> String
    {
        let edits = self.edits(old: lines(old), new: lines(new))
        guard edits.contains(where: { if case .same = $0 { return false } else { return true } }) else { return "" }
        var output = "--- \(oldName)\n+++ \(newName)\n"
        // Positions (old line, new line) before each edit, to number the hunks.
        var positions: [(old: Int, new: Int)] = []
        var oldLine = 0
        var newLine = 0
        for edit in edits {
            positions.append((oldLine, newLine))
            switch edit {
            case .same: (oldLine, newLine) = (oldLine + 1, newLine + 1)
            case .removed: oldLine += 1
            case .added: newLine += 1
            }
        }
        let changed = edits.indices.filter { if case .same = edits[$0] { return false } else { return true } }
        // Group changes whose context overlaps into one hunk.
        var hunks: [ClosedRange<Int>] = []
        for index in changed {
            let range = max(0, index - context)...min(edits.count - 1, index + context)
            if let last = hunks.last, range.lowerBound <= last.upperBound + 1 {
                hunks[hunks.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                hunks.append(range)
            }
        }
        for hunk in hunks {
            let slice = edits[hunk]
            let oldCount = slice.filter { if case .added = $0 { return false } else { return true } }.count
            let newCount = slice.filter { if case .removed = $0 { return false } else { return true } }.count
            let start = positions[hunk.lowerBound]
            output +=
                "@@ -\(start.old + (oldCount > 0 ? 1 : 0)),\(oldCount) +\(start.new + (newCount > 0 ? 1 : 0)),\(newCount) @@\n"
            for edit in slice {
                switch edit {
                case .same(let line): output += " \(line)\n"
                case .removed(let line): output += "-\(line)\n"
                case .added(let line): output += "+\(line)\n"
                }
            }
        }
        return output
    }

    /// The lines of a text, without the empty piece after a final newline.
    static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The shortest edit script by longest common subsequence (transcripts are hundreds of lines, so the
    /// quadratic table is small); removals come before additions where both are possible.
    static func edits(old: [String], new: [String]) -> [Edit] {
        let rows = old.count
        let columns = new.count
        // common[i][j]: length of the longest common subsequence of old[i...] and new[j...].
        var common = [[Int]](repeating: [Int](repeating: 0, count: columns + 1), count: rows + 1)
        for i in stride(from: rows - 1, through: 0, by: -1) {
            for j in stride(from: columns - 1, through: 0, by: -1) {
                common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0
        var j = 0
        while i < rows || j < columns {
            if i < rows, j < columns, old[i] == new[j] {
                edits.append(.same(old[i]))
                i += 1
                j += 1
            } else if i < rows, j == columns || common[i + 1][j] >= common[i][j + 1] {
                edits.append(.removed(old[i]))
                i += 1
            } else {
                edits.append(.added(new[j]))
                j += 1
            }
        }
        return edits
    }
}
