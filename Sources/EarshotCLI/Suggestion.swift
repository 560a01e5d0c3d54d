/// "Did you mean" guesses for mistyped words.
public enum Suggestion {
    /// The candidate closest to `word` when it is plausibly a typo of it, else nil.
    ///
    /// Distance is optimal-string-alignment (a swapped pair of letters counts once); up to 1 edit for
    /// words of four characters or fewer after leading dashes, up to 2 for longer ones.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let core = word.drop { $0 == "-" }
        let limit = core.count <= 4 ? 1 : 2
        let scored = candidates.map { ($0, distance(Array(core), Array($0.drop { $0 == "-" }))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return nil }
        return best.0
    }

    /// Optimal string alignment distance between two character sequences.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
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
}
