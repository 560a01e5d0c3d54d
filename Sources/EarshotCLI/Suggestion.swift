import EarshotCore

/// "Did you mean" guesses for mistyped words.
public enum Suggestion {
    /// The candidate closest to `word` when it is plausibly a typo of it, else nil.
    ///
    /// Distance is optimal-string-alignment (a swapped pair of letters counts once); up to 1 edit for
    /// words of four characters or fewer after leading dashes, up to 2 for longer ones.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let core = word.drop { $0 == "-" }
        let limit = core.count <= 4 ? 1 : 2
        let scored = candidates.map { ($0, Spelling.distance(String(core), String($0.drop { $0 == "-" }))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return nil }
        return best.0
    }
}
