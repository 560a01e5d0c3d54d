extension GoldenTranscript.Verdict {
    /// The terminal lines for a golden verdict (nothing when the script has no transcript or it matched).
    public func text(style: TerminalStyle) -> String {
        switch self {
        case .none, .matched: return ""
        case .written(let path, let replaced):
            return "  transcript \(replaced ? "updated" : "recorded"): \(path)\n\n"
        case .changed(let path, let diff):
            let lines = diff.split(separator: "\n", omittingEmptySubsequences: false).map {
                "    " + style.diffLine(String($0))
            }
            return "  \(style.fail("✘")) the timeline changed since \(path) was recorded "
                + "(run with --update to accept):\n" + lines.joined(separator: "\n") + "\n"
        }
    }
}
