/// "Did you mean …?": one edit distance for every place that suggests a name (script keywords and element ids,
/// voice file keys and profile names, command-line words).
public enum Spelling {
    /// Optimal-string-alignment distance: insertions, deletions, substitutions, and a swap of two adjacent
    /// characters each count one.
    public static func distance(_ first: String, _ second: String) -> Int {
        let a = Array(first)
        let b = Array(second)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, table[i - 2][j - 2] + 1)
                }
                table[i][j] = best
            }
        }
        return table[a.count][b.count]
    }

    /// The candidate nearest to `word` (ignoring case) within `limit` edits; the first of equals wins.
    public static func nearest(to word: String, among candidates: [String], limit: Int) -> String? {
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = distance(word.lowercased(), candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.candidate
    }
}
