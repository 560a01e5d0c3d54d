extension Finding {
    /// The page in the repository that explains the finding's pattern, its fix and its checks, e.g.
    /// `docs/patterns/announcement-spam.md`.
    public var page: String { FindingRules.page(forPattern: card) }
}

extension FindingRules.Rule {
    /// The page in the repository that explains the rule's pattern.
    public var page: String { FindingRules.page(forPattern: card) }
}

extension FindingRules {
    /// The folder, relative to the repository root (or an install's `share/earshot`), that holds one page per
    /// pattern.
    public static let patternPagesFolder = "docs/patterns"

    /// The page for a pattern name such as `skeleton-noise`.
    public static func page(forPattern pattern: String) -> String { "\(patternPagesFolder)/\(pattern).md" }
}
